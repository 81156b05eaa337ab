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

/** Bytes from a start to an end that may come in a later chunk; only the open span's are kept. */
class Span {
	private start = -1;
	private parts: Uint8Array[] = [];

	get isOpen(): boolean {
		return this.start !== -1;
	}

	open(at: number): void {
		this.start = at;
	}

	close(chunk: Uint8Array, end: number): string {
		this.parts.push(chunk.subarray(this.start, end));
		const text = Buffer.concat(this.parts).toString('utf8');
		this.parts = [];
		this.start = -1;
		return text;
	}

	/** At the end of a chunk: keeps what is open, to go on at the start of the next. */
	carry(chunk: Uint8Array): void {
		if (!this.isOpen) return;
		this.parts.push(chunk.subarray(this.start));
		this.start = 0;
	}
}

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
	private lastKey = '';
	private readonly key = new Span();
	private readonly record = new Span();

	/** The complete contact objects (as JSON text) that end in this chunk. */
	push(chunk: Uint8Array): string[] {
		const records: string[] = [];
		for (let i = 0; i < chunk.length; i++) {
			const byte = chunk[i];
			if (this.inString) {
				if (this.escaped) this.escaped = false;
				else if (byte === BYTE.backslash) this.escaped = true;
				else if (byte === BYTE.quote) {
					this.inString = false;
					if (this.key.isOpen) this.lastKey = this.key.close(chunk, i);
				}
			} else if (byte === BYTE.quote) {
				this.inString = true;
				if (this.depth === 1) this.key.open(i + 1);
			} else if (byte === BYTE.open || byte === BYTE.openArray) {
				if (this.depth === 2 && this.inContacts && byte === BYTE.open) this.record.open(i);
				if (this.depth === 1 && byte === BYTE.openArray)
					this.inContacts = this.lastKey === 'contacts';
				this.depth++;
			} else if (byte === BYTE.close || byte === BYTE.closeArray) {
				this.depth--;
				if (this.depth === 2 && this.record.isOpen) records.push(this.record.close(chunk, i + 1));
				if (this.depth === 1) this.inContacts = false;
			}
		}
		this.key.carry(chunk);
		this.record.carry(chunk);
		return records;
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
