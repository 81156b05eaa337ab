/** The contacts of a JSON export, one at a time as its bytes arrive: a list is never held whole. */
import type { IDataObject } from 'n8n-workflow';

const [QUOTE, BACKSLASH, OPEN, CLOSE, OPEN_ARRAY, CLOSE_ARRAY] = Buffer.from('"\\{}[]');

/**
 * Cuts the contact objects out of a JSON export as its chunks arrive. JSON's structural bytes are
 * ASCII, never part of a multi-byte character, so the cut can be made on bytes.
 */
class ContactObjectScanner {
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Whether the array being read at depth 2 is the top object's "contacts". */
	private inContacts = false;
	/** The bytes of the top object's key being read, and the last key read. */
	private key: number[] | undefined;
	private lastKey = '';
	/** Where the contact being read starts in this chunk (-1: none), and its earlier bytes. */
	private start = -1;
	private parts: Uint8Array[] = [];

	/** The complete contact objects (as JSON text) that end in this chunk. */
	push(chunk: Uint8Array): string[] {
		const records: string[] = [];
		for (let i = 0; i < chunk.length; i++) {
			const byte = chunk[i];
			if (this.inString) this.readString(byte);
			else if (byte === QUOTE) {
				this.inString = true;
				if (this.depth === 1) this.key = [];
			} else if (byte === OPEN || byte === OPEN_ARRAY) {
				if (this.depth === 2 && this.inContacts && byte === OPEN) this.start = i;
				if (this.depth === 1 && byte === OPEN_ARRAY) this.inContacts = this.lastKey === 'contacts';
				this.depth++;
			} else if (byte === CLOSE || byte === CLOSE_ARRAY) {
				this.depth--;
				if (this.depth === 2 && this.start !== -1) {
					this.parts.push(chunk.subarray(this.start, i + 1));
					records.push(Buffer.concat(this.parts).toString('utf8'));
					this.parts = [];
					this.start = -1;
				}
				if (this.depth === 1) this.inContacts = false;
			}
		}
		// A contact still open goes on at the start of the next chunk.
		if (this.start !== -1) {
			this.parts.push(chunk.subarray(this.start));
			this.start = 0;
		}
		return records;
	}

	private readString(byte: number): void {
		if (this.escaped || byte !== QUOTE) {
			this.escaped = !this.escaped && byte === BACKSLASH;
			this.key?.push(byte);
			return;
		}
		this.inString = false;
		if (this.key) this.lastKey = Buffer.from(this.key).toString('utf8');
		this.key = undefined;
	}
}

/** The contacts of a JSON export streamed as bytes (or text), each parsed when its last byte arrives. */
export async function* exportedContacts(
	stream: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<IDataObject> {
	const scanner = new ContactObjectScanner();
	for await (const chunk of stream) {
		for (const text of scanner.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk))
			yield JSON.parse(text) as IDataObject;
	}
}
