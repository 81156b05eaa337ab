/**
 * Counts of an export: its contacts, and those not unlocked (so without email). A file is read back
 * a chunk at a time; CSV as bytes, as what matters is ASCII and a bulk CSV runs to a million rows.
 */
import type { IDataObject, IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import type { ExportFormat } from '../../shared/client/contract';
import { exportedContacts } from '../../shared/client/exportContacts';

export interface ExportCounts {
	contacts: number;
	/** Undefined when the export leaves out the `unlocked` field, so it cannot tell. */
	notUnlocked: number | undefined;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** Enough of a cell's text to tell `unlocked` and `false` from anything longer. */
const CELL_TEXT_KEPT = 'unlocked'.length + 1;

/** RFC 4180 CSV fed as bytes, a chunk ending anywhere: a row whose `unlocked` cell is `false`. */
export class CsvCounter {
	private quoted = false;
	private row = 0;
	private column = 0;
	private rowStarted = false;
	private rowNotUnlocked = false;
	private unlockedColumn = -1;
	/** The start of the cell being read, where it matters: header names and the `unlocked` column. */
	private cellText = '';
	private contacts = 0;
	private notUnlocked = 0;

	feed(bytes: Uint8Array): void {
		for (let at = 0; at < bytes.length; at++) {
			const byte = bytes[at];
			if (!this.quoted && byte === LF) this.endRow();
			else if (this.quoted || byte !== CR) {
				this.rowStarted = true;
				// A doubled quote closes and reopens: its character is dropped, which no count needs.
				if (byte === QUOTE) this.quoted = !this.quoted;
				else if (this.quoted || byte !== COMMA) this.keep(byte);
				else {
					this.endCell();
					this.column++;
				}
			}
		}
	}

	result(): ExportCounts {
		if (this.rowStarted) this.endRow();
		return {
			contacts: this.contacts,
			notUnlocked: this.unlockedColumn >= 0 ? this.notUnlocked : undefined,
		};
	}

	private keep(byte: number): void {
		if (this.row > 0 && this.column !== this.unlockedColumn) return;
		if (this.cellText.length < CELL_TEXT_KEPT) this.cellText += String.fromCharCode(byte);
	}

	private endCell(): void {
		if (this.row === 0 && this.cellText === 'unlocked') this.unlockedColumn = this.column;
		else if (this.row > 0 && this.column === this.unlockedColumn && this.cellText === 'false')
			this.rowNotUnlocked = true;
		this.cellText = '';
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

/** Base64 characters decoded at a time (a multiple of 4). */
const BASE64_SLICE = 4 * 1024 * 1024;

/** The bytes of a stored binary file, a chunk at a time, from wherever n8n keeps it. */
async function* storedBytes(
	context: IExecuteFunctions,
	binary: IBinaryData,
): AsyncGenerator<Uint8Array> {
	if (binary.id) {
		yield* (await context.helpers.getBinaryStream(binary.id)) as AsyncIterable<Uint8Array>;
		return;
	}
	for (let at = 0; at < binary.data.length; at += BASE64_SLICE) {
		yield Buffer.from(binary.data.slice(at, at + BASE64_SLICE), 'base64');
	}
}

export async function countStoredExport(
	context: IExecuteFunctions,
	binary: IBinaryData,
	format: ExportFormat,
): Promise<ExportCounts> {
	if (format === 'json') return await countContacts(exportedContacts(storedBytes(context, binary)));
	const counter = new CsvCounter();
	for await (const bytes of storedBytes(context, binary)) counter.feed(bytes);
	return counter.result();
}

/** Counts of exported contacts, as items or read from a JSON file; no `unlocked` field, no telling. */
export async function countContacts(
	contacts: Iterable<IDataObject> | AsyncIterable<IDataObject>,
): Promise<ExportCounts> {
	let count = 0;
	let notUnlocked = 0;
	let known = false;
	for await (const contact of contacts) {
		count++;
		known ||= 'unlocked' in contact;
		if (contact.unlocked === false) notUnlocked++;
	}
	return { contacts: count, notUnlocked: known ? notUnlocked : undefined };
}

/** Tells the user when contacts were exported without email because they are not unlocked. */
export function hintNotUnlocked(
	context: IExecuteFunctions,
	{ contacts, notUnlocked }: ExportCounts,
): void {
	if (!notUnlocked) return;
	const verb = notUnlocked === 1 ? 'has no email because it is' : 'have no email because they are';
	context.addExecutionHints({
		message: `${notUnlocked} of the ${contacts} exported contacts ${verb} not unlocked. Unlock them first (Contact → Unlock), or turn on Unlocked Contacts Only to export just the unlocked ones.`,
		location: 'outputPane',
	});
}
