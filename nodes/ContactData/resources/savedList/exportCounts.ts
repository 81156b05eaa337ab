/**
 * Counts in an export file: its contacts, and those exported without email because the account has
 * not unlocked them (the `unlocked` field is false). The file is read back a chunk at a time as
 * bytes: the characters that matter are ASCII, so UTF-8 needs no decoding and memory stays flat.
 */
import type { IDataObject, IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import type { ExportFormat } from '../../shared/client/contract';

export interface ExportCounts {
	contacts: number;
	/** Undefined when the export leaves out the `unlocked` field, so it cannot tell. */
	notUnlocked: number | undefined;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LETTER_F = 0x66;
const BRACE_OPEN = 0x7b;
const BRACE_CLOSE = 0x7d;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;

const asciiBytes = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));
const UNLOCKED = asciiBytes('unlocked');
const FALSE = asciiBytes('false');

/** Whether the bytes of a text, fed in pieces, spell one word exactly (no string is built). */
class WordMatch {
	private position = 0;
	private matching = true;

	constructor(private readonly word: Uint8Array) {}

	reset(): void {
		this.position = 0;
		this.matching = true;
	}

	feed(bytes: Uint8Array, from: number, to: number): void {
		for (let at = from; at < to && this.matching; at++) {
			this.matching = this.position < this.word.length && bytes[at] === this.word[this.position];
			this.position++;
		}
	}

	matched(): boolean {
		return this.matching && this.position === this.word.length;
	}
}

export interface ExportCounter {
	/** The file's next bytes (a chunk may end anywhere, even inside a cell or a string). */
	feed(bytes: Uint8Array): void;
	result(): ExportCounts;
}

/** RFC 4180 CSV: the header row names the columns; a row counts as not unlocked when its `unlocked` cell is `false`. */
class CsvCounter implements ExportCounter {
	private quoted = false;
	private row = 0;
	private column = 0;
	private rowStarted = false;
	private rowNotUnlocked = false;
	private unlockedColumn = -1;
	private readonly header = new WordMatch(UNLOCKED);
	private readonly cell = new WordMatch(FALSE);
	private contacts = 0;
	private notUnlocked = 0;

	feed(bytes: Uint8Array): void {
		const length = bytes.length;
		for (let at = 0; at < length; at++) {
			const byte = bytes[at];
			if (this.quoted) {
				// To the closing quote. A doubled quote closes and reopens: its character is dropped, which no count needs.
				let stop = at;
				while (stop < length && bytes[stop] !== QUOTE) stop++;
				this.keep(bytes, at, stop);
				at = stop;
				if (stop < length) this.quoted = false;
			} else if (byte === LF) this.endRow();
			else if (byte !== CR) {
				this.rowStarted = true;
				if (byte === QUOTE) this.quoted = true;
				else if (byte === COMMA) {
					this.endCell();
					this.column++;
				} else {
					// The rest of an unquoted cell, up to the next byte that means something.
					let stop = at + 1;
					while (stop < length) {
						const next = bytes[stop];
						if (next === COMMA || next === LF || next === CR || next === QUOTE) break;
						stop++;
					}
					this.keep(bytes, at, stop);
					at = stop - 1;
				}
			}
		}
	}

	result(): ExportCounts {
		if (this.rowStarted) this.endRow();
		return { contacts: this.contacts, notUnlocked: this.unlockedColumn >= 0 ? this.notUnlocked : undefined };
	}

	/** Matches cell text only where it matters: header names and the `unlocked` column. */
	private keep(bytes: Uint8Array, from: number, to: number): void {
		if (this.row === 0) this.header.feed(bytes, from, to);
		else if (this.column === this.unlockedColumn) this.cell.feed(bytes, from, to);
	}

	private endCell(): void {
		if (this.row === 0 && this.header.matched()) this.unlockedColumn = this.column;
		else if (this.row > 0 && this.column === this.unlockedColumn && this.cell.matched()) this.rowNotUnlocked = true;
		this.header.reset();
		this.cell.reset();
	}

	private endRow(): void {
		this.endCell();
		if (this.row > 0 && this.rowStarted) {
			this.contacts++;
			if (this.rowNotUnlocked) this.notUnlocked++;
		}
		this.row++;
		this.column = 0;
		this.rowStarted = false;
		this.rowNotUnlocked = false;
	}
}

/** `{"contacts": [{…}, …]}`: a contact is an object inside the array; its `unlocked` key is read at that depth. */
class JsonCounter implements ExportCounter {
	private static readonly CONTACT_DEPTH = 3;
	private depth = 0;
	private inString = false;
	private escaped = false;
	/** Whether the latest string of a contact (a key, before a colon) is `unlocked`. */
	private readonly key = new WordMatch(UNLOCKED);
	private lastStringIsUnlocked = false;
	/** The next value is the `unlocked` field's. */
	private unlockedValueNext = false;
	private sawUnlocked = false;
	private contacts = 0;
	private notUnlocked = 0;

	feed(bytes: Uint8Array): void {
		const length = bytes.length;
		for (let at = 0; at < length; at++) {
			if (this.inString) {
				at = this.stringUntil(bytes, at);
				continue;
			}
			const byte = bytes[at];
			if (byte === SPACE || byte === LF || byte === CR || byte === TAB) continue;
			if (this.unlockedValueNext) {
				this.unlockedValueNext = false;
				this.sawUnlocked = true;
				if (byte === LETTER_F) this.notUnlocked++;
			}
			if (byte === QUOTE) {
				this.inString = true;
				this.key.reset();
			} else if (byte === COLON) {
				this.unlockedValueNext = this.depth === JsonCounter.CONTACT_DEPTH && this.lastStringIsUnlocked;
			} else if (byte === BRACE_OPEN || byte === BRACKET_OPEN) {
				if (byte === BRACE_OPEN && this.depth === JsonCounter.CONTACT_DEPTH - 1) this.contacts++;
				this.depth++;
			} else if (byte === BRACE_CLOSE || byte === BRACKET_CLOSE) this.depth--;
		}
	}

	result(): ExportCounts {
		return { contacts: this.contacts, notUnlocked: this.sawUnlocked ? this.notUnlocked : undefined };
	}

	/** Reads string bytes from `at`: to the closing quote (returns its position) or the chunk's end. */
	private stringUntil(bytes: Uint8Array, at: number): number {
		const length = bytes.length;
		let from = at;
		if (this.escaped) {
			// The byte after a backslash that ended the previous chunk.
			this.escaped = false;
			this.key.feed(bytes, from, from + 1);
			from++;
		}
		let end = from;
		while (end < length) {
			const byte = bytes[end];
			if (byte === QUOTE) break;
			if (byte === BACKSLASH) {
				if (end + 1 >= length) {
					this.keepText(bytes, from, end + 1);
					this.escaped = true;
					return length;
				}
				end += 2;
				continue;
			}
			end++;
		}
		this.keepText(bytes, from, Math.min(end, length));
		if (end >= length) return length;
		this.inString = false;
		this.lastStringIsUnlocked = this.depth === JsonCounter.CONTACT_DEPTH && this.key.matched();
		return end;
	}

	/** Only a contact's own strings can be its `unlocked` key. */
	private keepText(bytes: Uint8Array, from: number, to: number): void {
		if (this.depth === JsonCounter.CONTACT_DEPTH) this.key.feed(bytes, from, to);
	}
}

export function exportCounter(format: ExportFormat): ExportCounter {
	return format === 'csv' ? new CsvCounter() : new JsonCounter();
}

/** Base64 characters decoded at a time (a multiple of 4). */
const BASE64_SLICE = 4 * 1024 * 1024;

/** The bytes of a stored binary file, a chunk at a time, from wherever n8n keeps it. */
async function* storedBytes(context: IExecuteFunctions, binary: IBinaryData): AsyncGenerator<Uint8Array> {
	if (binary.id) {
		for await (const chunk of await context.helpers.getBinaryStream(binary.id)) yield chunk as Uint8Array;
		return;
	}
	for (let at = 0; at < binary.data.length; at += BASE64_SLICE) {
		yield Buffer.from(binary.data.slice(at, at + BASE64_SLICE), 'base64');
	}
}

/** Counts of an export file n8n has stored. */
export async function countStoredExport(
	context: IExecuteFunctions,
	binary: IBinaryData,
	format: ExportFormat,
): Promise<ExportCounts> {
	const counter = exportCounter(format);
	for await (const bytes of storedBytes(context, binary)) counter.feed(bytes);
	return counter.result();
}

/** Counts of an export output as items. */
export function countExportedItems(contacts: IDataObject[]): ExportCounts {
	const known = contacts.some((contact) => 'unlocked' in contact);
	return {
		contacts: contacts.length,
		notUnlocked: known ? contacts.filter((contact) => contact.unlocked === false).length : undefined,
	};
}

/** The notice for contacts exported without email, or undefined when there are none. */
export function notUnlockedNotice({ contacts, notUnlocked }: ExportCounts): string | undefined {
	if (!notUnlocked) return undefined;
	const verb = notUnlocked === 1 ? 'has no email because it is' : 'have no email because they are';
	return `${notUnlocked} of the ${contacts} exported contacts ${verb} not unlocked. Unlock them first (Contact → Unlock), or turn on Unlocked Contacts Only to export just the unlocked ones.`;
}
