/** The versions n8n gives the package's nodes. */
import type { INodeTypeDescription } from 'n8n-workflow';

/** The version n8n gives a new node of the type: its defaultVersion, else its highest version. */
export const newNodeVersion = ({ defaultVersion, version }: INodeTypeDescription): number =>
	defaultVersion ?? Math.max(...[version].flat());
