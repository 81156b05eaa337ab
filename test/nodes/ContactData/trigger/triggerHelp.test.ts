/**
 * The trigger's help shows the same on every n8n line, so it names no control one line lacks (issue 44, finding
 * 5): n8n 2.x publishes a workflow where 1.x has an Active toggle, and the test button of this trigger reads
 * "Execute step" on both ("Listen for test event" is n8n's Webhook node's alone). The browser journey checks that
 * each button its help quotes is on the trigger's panel of each line (scripts/n8n/journey.mjs).
 */
import { ContactDataTrigger } from '../../../../nodes/ContactData/ContactDataTrigger.node';

const { triggerPanel } = new ContactDataTrigger().description;
const panel = typeof triggerPanel === 'object' ? triggerPanel : {};
const help = panel.executionsHelp;
const texts = [
	panel.header,
	...(typeof help === 'object' ? [help.inactive, help.active] : [help]),
	panel.activationHint,
].map(String);

/** Controls only one line has, or neither has on this trigger's panel. */
const ONE_LINE_ONLY =
	/\b(un)?publish(ed|ing)?\b|\b(in)?activ(e|ate|ated|ating)\b|Listen for test event/i;

it('has all four texts', () => {
	expect(texts.filter((text) => text.length < 20)).toEqual([]);
});

it('names no control that one n8n line lacks', () => {
	expect(texts.filter((text) => ONE_LINE_ONLY.test(text))).toEqual([]);
});

it('quotes the test button both lines show', () => {
	expect(texts.join(' ')).toContain('"Execute step"');
});
