/**
 * The contacts of a JSON export, `{"contacts":[{…},{…}]}`, one at a time as its bytes arrive: the
 * one reader of an export's contacts, for the poll trigger (the export as it downloads) and for
 * Export (its file read back from n8n's store). A list of any size is never held whole.
 */
import type { IDataObject } from 'n8n-workflow';

const BYTE = {
	quote: 0x22,
	backslash: 0x5c,
	open: 0x7b,
	close: 0x7d,
	openArray: 0x5b,
	closeArray: 0x5d,
};

/**
 * Cuts the contact objects out of a JSON export as its chunks arrive. Only the bytes of the
 * object being read are kept; JSON's structural bytes are ASCII, so they are never part of a
 * multi-byte character and the cut can be made on bytes.
 */
class ContactObjectScanner {
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Whether the array being read at depth 2 is the top object's "contacts". */
	private inContacts = false;
	private keyStart = -1;
	private keyParts: Uint8Array[] = [];
	private lastKey = '';
	private recordParts: Uint8Array[] = [];
	private recordStart = -1;

	/** The complete contact objects (as JSON text) that end in this chunk. */
	push(chunk: Uint8Array): string[] {
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
				if (this.depth === 1 && byte === BYTE.openArray)
					this.inContacts = this.lastKey === 'contacts';
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

	private endString(chunk: Uint8Array, i: number): void {
		this.inString = false;
		if (this.depth !== 1 || this.keyStart === -1) return;
		this.keyParts.push(chunk.subarray(this.keyStart, i));
		this.lastKey = Buffer.concat(this.keyParts).toString('utf8');
		this.keyParts = [];
		this.keyStart = -1;
	}

	/** Keeps the unfinished object (or key) of this chunk; -2 marks "continues at the next chunk's start". */
	private carryOver(chunk: Uint8Array): void {
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

/** The contacts of a JSON export streamed as bytes (or text), each parsed when its last byte arrives. */
export async function* exportedContacts(
	stream: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<IDataObject> {
	const scanner = new ContactObjectScanner();
	for await (const chunk of stream) {
		for (const text of scanner.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
			yield JSON.parse(text) as IDataObject;
		}
	}
}
