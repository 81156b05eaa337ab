/** The one reader of a JSON export's contacts: each contact whole, wherever the chunks are cut. */
import { exportedContacts } from '../../../../../nodes/ContactData/shared/client/exportContacts';

async function* chunks(...parts: Buffer[]): AsyncGenerator<Buffer> {
	for (const part of parts) yield part;
}

async function read(parts: Buffer[]): Promise<unknown[]> {
	const contacts: unknown[] = [];
	for await (const contact of exportedContacts(chunks(...parts))) contacts.push(contact);
	return contacts;
}

/** The contacts of `text`, read whole and cut in two at every byte position. */
async function contactsEverySplit(text: string): Promise<unknown[]> {
	const bytes = Buffer.from(text, 'utf8');
	const whole = await read([bytes]);
	for (let cut = 0; cut <= bytes.length; cut++) {
		expect({ cut, contacts: await read([bytes.subarray(0, cut), bytes.subarray(cut)]) }).toEqual({
			cut,
			contacts: whole,
		});
	}
	return whole;
}

it('cuts out each contact through quotes, escapes, nested objects and UTF-8, at every chunk boundary', async () => {
	const contacts = [
		{
			id: 'ct_1',
			title: 'say "}],{" \\ here',
			unlocked: false,
			company: { name: 'Café Ünïcode', tech_stack: ['a', 'b'] },
		},
		{ id: 'ct_2', work_history: [{ title: 'x\\"y', unlocked: false }], unlocked: true },
	];
	expect(await contactsEverySplit(JSON.stringify({ contacts }))).toEqual(contacts);
	expect(await contactsEverySplit(JSON.stringify({ contacts }, null, 2))).toEqual(contacts);
});

it('reads only the contacts array, wherever it stands among other keys', async () => {
	const text = JSON.stringify({
		list: { id: 'ls_1', tags: [{ id: 'x' }] },
		contacts: [{ id: 'ct_1' }],
		after: [{ id: 'y' }],
	});
	expect(await contactsEverySplit(text)).toEqual([{ id: 'ct_1' }]);
	expect(await contactsEverySplit('{"contacts":[]}')).toEqual([]);
});

it('takes text chunks as well as bytes', async () => {
	async function* text(): AsyncGenerator<string> {
		yield '{"contacts":[{"id":"ct_1","title":"Dir';
		yield 'ector"}]}';
	}
	const contacts: unknown[] = [];
	for await (const contact of exportedContacts(text())) contacts.push(contact);
	expect(contacts).toEqual([{ id: 'ct_1', title: 'Director' }]);
});
