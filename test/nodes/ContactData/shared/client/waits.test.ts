/** Stop ends a wait whenever it is pressed, up to the wait's last moment; a long wait stays long. */
import { sleep } from 'n8n-workflow';

import { pause } from '../../../../../nodes/ContactData/shared/client/waits';

function stoppable() {
	const controller = new AbortController();
	const context = {
		getNode: () => ({
			id: 'n',
			name: 'Contact Data',
			type: 'n8n-nodes-contact-data.contactData',
			typeVersion: 2,
			position: [0, 0] as [number, number],
			parameters: {},
		}),
		getExecutionCancelSignal: () => controller.signal,
	};
	return { context, stop: () => controller.abort() };
}

it('Stop pressed in the last slice of a wait ends it: nothing is sent after Stop', async () => {
	const { context, stop } = stoppable();
	// Due before the wait ends, and after its last 200 ms slice began.
	void sleep(900).then(stop);
	await expect(pause(context, 1_000, 0)).rejects.toThrow('The execution was cancelled');
});

it('Stop pressed during a wait shorter than a slice ends it', async () => {
	const { context, stop } = stoppable();
	void sleep(20).then(stop);
	await expect(pause(context, 100, 0)).rejects.toThrow('The execution was cancelled');
});

it('a wait longer than a timer can hold does not end at once', async () => {
	const { context, stop } = stoppable();
	const waited = pause(context, 2 ** 31, 0).then(
		() => 'ended',
		() => 'stopped',
	);
	const first = await Promise.race([waited, sleep(300).then(() => 'still waiting')]);
	stop();
	expect(first).toBe('still waiting');
	expect(await waited).toBe('stopped');
});
