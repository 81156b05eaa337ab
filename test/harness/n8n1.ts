/**
 * What n8n 1.x's engine lacks, played in the 2.41.1 engine of these tests. n8n-core 1.122's
 * `ExecuteContext` has no `isToolExecution()` (n8n 1.123.81, measured in the e2e on that line): the
 * method is taken off the real prototype for the duration of `body`, so the node runs through the
 * same `WorkflowExecute` with the context n8n 1.x gives it.
 */
import { ExecuteContext } from 'n8n-core';

export async function withoutIsToolExecution<T>(body: () => Promise<T>): Promise<T> {
	const prototype = ExecuteContext.prototype as unknown as Record<string, unknown>;
	const method = prototype.isToolExecution;
	delete prototype.isToolExecution;
	try {
		return await body();
	} finally {
		prototype.isToolExecution = method;
	}
}
