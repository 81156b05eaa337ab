/** The export's counts read from the file: CSV and JSON, whatever the quoting, escapes and chunk boundaries. */
import { exportCounter } from '../../../../../nodes/ContactData/resources/savedList/exportCounts';

/** Counts of `text`, fed whole and cut at every byte position (chunks may end anywhere). */
function countsEverySplit(format: 'csv' | 'json', text: string) {
	const bytes = Buffer.from(text, 'utf8');
	const whole = exportCounter(format);
	whole.feed(bytes);
	const expected = whole.result();
	for (let cut = 0; cut <= bytes.length; cut++) {
		const split = exportCounter(format);
		split.feed(bytes.subarray(0, cut));
		split.feed(bytes.subarray(cut));
		expect({ cut, counts: split.result() }).toEqual({ cut, counts: expected });
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
	expect(countsEverySplit('csv', csv)).toEqual({ contacts: 4, notUnlocked: 2 });
	expect(countsEverySplit('csv', 'id,email\r\nct_1,\r\nct_2,a@b.co\r\n')).toEqual({ contacts: 2, notUnlocked: undefined });
	expect(countsEverySplit('csv', 'id,unlocked\r\n')).toEqual({ contacts: 0, notUnlocked: 0 });
});

it('JSON: counts contacts and their own unlocked=false, not nested keys or strings that look alike', () => {
	const json = JSON.stringify({
		contacts: [
			{ id: 'ct_1', title: 'say "unlocked":false', unlocked: false, company: { unlocked: false } },
			{ id: 'ct_2', unlocked: true, work_history: [{ title: 'x\\"y', unlocked: false }] },
			{ id: 'ct_3', unlockedx: false, unlocked: false },
		],
	});
	expect(countsEverySplit('json', json)).toEqual({ contacts: 3, notUnlocked: 2 });
	expect(countsEverySplit('json', '{"contacts": [ {"id": "ct_1"} , {"id": "ct_2"} ]}')).toEqual({ contacts: 2, notUnlocked: undefined });
	expect(countsEverySplit('json', '{"contacts":[]}')).toEqual({ contacts: 0, notUnlocked: undefined });
});
