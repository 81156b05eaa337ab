/**
 * Counts in an export file: its contacts, and those exported without email because the account has
 * not unlocked them (the `unlocked` field is false). The file is read back a chunk at a time, byte
 * by byte: the characters that matter are ASCII, so UTF-8 needs no decoding and memory stays flat.
 */
import type { IDataObject, IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import type { ExportFormat } from '../../shared/contract';

export interface ExportCounts {
	contacts: number;
	/** Undefined when the export leaves out the `unlocked` field, so it cannot tell. */
	notUnlocked: number | undefined;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LETTER_F = 0x66;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const OBJECT_OPEN = 0x7b;
const WHITESPACE = new Set([0x20, 0x09, CR, LF]);
/** Longer cells and keys are never the ones looked for. */
const KEPT_BYTES = 16;

interface Counter {
	feed(bytes: Uint8Array): void;
	result(): ExportCounts;
}

/** RFC 4180 CSV: the header row names the columns; a row counts as not unlocked when its `unlocked` cell is `false`. */
function csvCounter(): Counter {
	let quoted = false;
	let row = 0;
	let column = 0;
	let cell: number[] = [];
	let rowStarted = false;
	let rowNotUnlocked = false;
	let unlockedColumn = -1;
	const counts = { contacts: 0, notUnlocked: 0 };

	const keep = (byte: number) => {
		if ((row === 0 || column === unlockedColumn) && cell.length < KEPT_BYTES) cell.push(byte);
	};
	const endCell = () => {
		const text = String.fromCharCode(...cell);
		if (row === 0 && text === 'unlocked') unlockedColumn = column;
		else if (row > 0 && column === unlockedColumn && text === 'false') rowNotUnlocked = true;
		cell = [];
	};
	const endRow = () => {
		endCell();
		if (row > 0 && rowStarted) {
			counts.contacts++;
			if (rowNotUnlocked) counts.notUnlocked++;
		}
		row++;
		column = 0;
		rowStarted = false;
		rowNotUnlocked = false;
	};
	return {
		feed(bytes) {
			for (const byte of bytes) {
				if (quoted) {
					// A doubled quote closes and reopens: its character is dropped, which no count needs.
					if (byte === QUOTE) quoted = false;
					else keep(byte);
				} else if (byte === LF) endRow();
				else if (byte !== CR) {
					rowStarted = true;
					if (byte === QUOTE) quoted = true;
					else if (byte === COMMA) {
						endCell();
						column++;
					} else keep(byte);
				}
			}
		},
		result() {
			if (rowStarted) endRow();
			return { contacts: counts.contacts, notUnlocked: unlockedColumn >= 0 ? counts.notUnlocked : undefined };
		},
	};
}

/** `{"contacts": [{…}, …]}`: a contact is an object inside the array; its `unlocked` key is read at that depth. */
function jsonCounter(): Counter {
	const CONTACT_DEPTH = 3;
	let depth = 0;
	let inString = false;
	let escaped = false;
	let text: number[] = [];
	let lastString = '';
	let key: string | undefined;
	let sawUnlocked = false;
	const counts = { contacts: 0, notUnlocked: 0 };

	const stringByte = (byte: number) => {
		if (escaped) escaped = false;
		else if (byte === BACKSLASH) escaped = true;
		else if (byte === QUOTE) {
			inString = false;
			if (depth === CONTACT_DEPTH) lastString = String.fromCharCode(...text);
		} else if (text.length < KEPT_BYTES) text.push(byte);
	};
	return {
		feed(bytes) {
			for (const byte of bytes) {
				if (inString) {
					stringByte(byte);
					continue;
				}
				if (WHITESPACE.has(byte)) continue;
				if (key !== undefined) {
					// The first byte of a contact's field value.
					if (key === 'unlocked') {
						sawUnlocked = true;
						if (byte === LETTER_F) counts.notUnlocked++;
					}
					key = undefined;
				}
				if (byte === QUOTE) {
					inString = true;
					text = [];
				} else if (byte === COLON && depth === CONTACT_DEPTH) key = lastString;
				else if (OPEN.has(byte)) {
					if (byte === OBJECT_OPEN && depth === CONTACT_DEPTH - 1) counts.contacts++;
					depth++;
				} else if (CLOSE.has(byte)) depth--;
			}
		},
		result() {
			return { contacts: counts.contacts, notUnlocked: sawUnlocked ? counts.notUnlocked : undefined };
		},
	};
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
	const counter = format === 'csv' ? csvCounter() : jsonCounter();
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
