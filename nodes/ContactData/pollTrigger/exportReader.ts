/**
 * Reads a saved list's members through its export (free, not rate limited), a member at a time:
 * the JSON export `{"contacts":[{…},{…}]}` is cut into its contact objects as the bytes arrive, so
 * a list of any size, inline or through the signed URL of a bulk export, is never held whole.
 */
import { NodeApiError, type IDataObject, type IPollFunctions } from 'n8n-workflow';

import { PATHS, exportUrlResponseSchema } from '../shared/client/contract';
import { openSignedUrl } from '../shared/client/exportDownload';
import { readJsonStream } from '../shared/client/jsonStream';
import { apiRequest, type ApiResponse } from '../shared/client/transport';

/**
 * The fields a member is exported with: the contact preview, which is what an event carries (a
 * poll needs title and company to compare, and the rest to emit the contact as the webhook does).
 */
export const EXPORTED_FIELDS = [
	'id',
	'first_name',
	'last_name',
	'title',
	'seniority',
	'department',
	'company.name',
	'company.domain',
	'company.industry',
	'company.size',
	'company.funding_stage',
	'company.tech_stack',
	'location.country',
	'location.region',
	'location.city',
	'has_email',
	'has_phone',
	'unlocked',
];

const BYTE = { quote: 0x22, backslash: 0x5c, open: 0x7b, close: 0x7d, openArray: 0x5b, closeArray: 0x5d, colon: 0x3a };

/**
 * Cuts the contact objects out of a JSON export as its chunks arrive. Only the bytes of the
 * object being read are kept; JSON's structural bytes are ASCII, so they are never part of a
 * multi-byte character and the cut can be made on bytes.
 */
export class ContactObjectScanner {
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Whether the array being read at depth 2 is the top object's "contacts". */
	private inContacts = false;
	private keyStart = -1;
	private keyParts: Buffer[] = [];
	private lastKey = '';
	private recordParts: Buffer[] = [];
	private recordStart = -1;

	/** The complete contact objects (as JSON text) that end in this chunk. */
	push(chunk: Buffer): string[] {
		const records: string[] = [];
		if (this.recordStart === -2) this.recordStart = 0;
		if (this.keyStart === -2) this.keyStart = 0;
		for (let i = 0; i < chunk.length; i++) {
			const byte = chunk[i];
			if (this.inString) {
				if (this.escaped) this.escaped = false;
				else if (byte === BYTE.backslash) this.escaped = true;
				else if (byte === BYTE.quote) this.endString(chunk, i);
				continue;
			}
			if (byte === BYTE.quote) {
				this.inString = true;
				if (this.depth === 1) this.keyStart = i + 1;
			} else if (byte === BYTE.open || byte === BYTE.openArray) {
				if (this.depth === 2 && this.inContacts && byte === BYTE.open) this.recordStart = i;
				if (this.depth === 1 && byte === BYTE.openArray) this.inContacts = this.lastKey === 'contacts';
				this.depth++;
			} else if (byte === BYTE.close || byte === BYTE.closeArray) {
				this.depth--;
				if (this.depth === 2 && this.inContacts && this.recordStart !== -1) {
					this.recordParts.push(chunk.subarray(this.recordStart, i + 1));
					records.push(Buffer.concat(this.recordParts).toString('utf8'));
					this.recordParts = [];
					this.recordStart = -1;
				}
				if (this.depth === 1) this.inContacts = false;
			}
		}
		this.carryOver(chunk);
		return records;
	}

	private endString(chunk: Buffer, i: number): void {
		this.inString = false;
		if (this.depth !== 1 || this.keyStart === -1) return;
		this.keyParts.push(chunk.subarray(this.keyStart, i));
		this.lastKey = Buffer.concat(this.keyParts).toString('utf8');
		this.keyParts = [];
		this.keyStart = -1;
	}

	/** Keeps the unfinished object (or key) of this chunk; -2 marks "continues at the next chunk's start". */
	private carryOver(chunk: Buffer): void {
		if (this.recordStart >= 0) {
			this.recordParts.push(chunk.subarray(this.recordStart));
			this.recordStart = -2;
		}
		if (this.keyStart >= 0 && this.inString) {
			this.keyParts.push(chunk.subarray(this.keyStart));
			this.keyStart = -2;
		}
	}
}

type Stream = AsyncIterable<Buffer | string>;

/** Starts the export of a list; a bulk export (202) is followed to its signed URL. */
async function openExport(context: IPollFunctions, listId: string): Promise<Stream> {
	const started = (await apiRequest.call(context, {
		method: 'POST',
		path: PATHS.listExport(listId),
		pathParameter: 'Saved Lists to Watch',
		body: { format: 'json', fields: EXPORTED_FIELDS },
		stream: true,
		safeToRetry: true,
	})) as ApiResponse<Stream>;
	if (started.statusCode !== 202) return started.body;
	const answer = exportUrlResponseSchema.safeParse(await readJsonStream(started.body));
	if (!answer.success) {
		throw new NodeApiError(context.getNode(), { code: 'unreadable_answer' }, {
			message: `The API answered the export of the saved list ${listId} without a usable download URL`,
			description: 'Nothing was compared; the next poll tries again.',
			httpCode: '202',
		});
	}
	return (await openSignedUrl.call(context, answer.data.url)).body;
}

/** The members of a list, one parsed contact at a time, as the export streams in. */
export async function* exportedMembers(context: IPollFunctions, listId: string): AsyncGenerator<IDataObject> {
	const scanner = new ContactObjectScanner();
	for await (const chunk of await openExport(context, listId)) {
		for (const text of scanner.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))) {
			yield JSON.parse(text) as IDataObject;
		}
	}
}
