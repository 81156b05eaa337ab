/**
 * A node that does nothing but read one parameter for every item: what n8n itself spends on a
 * per-item parameter (expression included) before any node logic runs. Bench only.
 */
import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

export class ParameterProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Parameter Probe',
		name: 'parameterProbe',
		group: ['transform'],
		version: 1,
		description: 'Reads one parameter per item',
		defaults: { name: 'Parameter Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++)
			this.getNodeParameter('value', itemIndex);
		return [items];
	}
}
