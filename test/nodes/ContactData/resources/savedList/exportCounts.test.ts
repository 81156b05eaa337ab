/** The export's counts read from the file: CSV and JSON, whatever the quoting, escapes and chunk boundaries. */
import {
	countContacts,
	CsvCounter,
} from '../../../../../nodes/ContactData/resources/savedList/exportCounts';
import { exportedContacts } from '../../../../../nodes/ContactData/shared/client/exportContacts';

/** Counts of a CSV `text`, fed whole and cut at every byte position (chunks may end anywhere). */
function csvCountsEverySplit(text: string) {
	const bytes = Buffer.from(text, 'utf8');
	const whole = new CsvCounter();
	whole.feed(bytes);
	const expected = whole.result();
	for (let cut = 0; cut <= bytes.length; cut++) {
		const split = new CsvCounter();
		split.feed(bytes.subarray(0, cut));
		split.feed(bytes.subarray(cut));
		expect({ cut, counts: split.result() }).toEqual({ cut, counts: expected });
	}
	return expected;
}

async function* chunks(...parts: Buffer[]): AsyncGenerator<Buffer> {
	for (const part of parts) yield part;
}

/** Counts of a JSON `text` read through the export reader, whole and cut at every byte position. */
async function jsonCountsEverySplit(text: string) {
	const bytes = Buffer.from(text, 'utf8');
	const expected = await countContacts(exportedContacts(chunks(bytes)));
	for (let cut = 0; cut <= bytes.length; cut++) {
		const split = await countContacts(
			exportedContacts(chunks(bytes.subarray(0, cut), bytes.subarray(cut))),
		);
		expect({ cut, counts: split }).toEqual({ cut, counts: expected });
	}
	return expected;
}

it('CSV: counts rows and unlocked=false cells, through quotes, commas, line breaks and UTF-8 in cells', () => {
	const csv = [
		'id,"title",unlocked,email',
		'ct_1,"Director, ""Sales""",false,',
		'ct_2,"Head of\r\nData",true,a@b.co',
		'ct_3,Café Ünïcode,"false",',
		'ct_4,falsely,true,c@d.co',
		'',
	].join('\r\n');
	expect(csvCountsEverySplit(csv)).toEqual({ contacts: 4, notUnlocked: 2 });
	expect(csvCountsEverySplit('id,email\r\nct_1,\r\nct_2,a@b.co\r\n')).toEqual({
		contacts: 2,
		notUnlocked: undefined,
	});
	expect(csvCountsEverySplit('id,unlocked\r\n')).toEqual({ contacts: 0, notUnlocked: 0 });
});

it('JSON: counts contacts and their own unlocked=false, not nested keys or strings that look alike', async () => {
	const json = JSON.stringify({
		contacts: [
			{ id: 'ct_1', title: 'say "unlocked":false', unlocked: false, company: { unlocked: false } },
			{ id: 'ct_2', unlocked: true, work_history: [{ title: 'x\\"y', unlocked: false }] },
			{ id: 'ct_3', unlockedx: false, unlocked: false },
		],
	});
	expect(await jsonCountsEverySplit(json)).toEqual({ contacts: 3, notUnlocked: 2 });
	expect(await jsonCountsEverySplit('{"contacts": [ {"id": "ct_1"} , {"id": "ct_2"} ]}')).toEqual({
		contacts: 2,
		notUnlocked: undefined,
	});
	expect(await jsonCountsEverySplit('{"contacts":[]}')).toEqual({
		contacts: 0,
		notUnlocked: undefined,
	});
});

it('items: the same counts from the contacts an export gave as items', async () => {
	expect(
		await countContacts([
			{ id: 'ct_1', unlocked: false },
			{ id: 'ct_2', unlocked: true },
		]),
	).toEqual({ contacts: 2, notUnlocked: 1 });
	expect(await countContacts([{ id: 'ct_1' }])).toEqual({ contacts: 1, notUnlocked: undefined });
});
