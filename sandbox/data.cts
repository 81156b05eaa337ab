/**
 * The sandbox's data set: a deterministic, generated population of contacts stored column-wise in
 * typed arrays of indexes into vocabularies (names, titles, companies, cities). Records are built
 * on demand from those indexes and a hash of the seed, so a million contacts take a few megabytes.
 */
import {
	FUNDING_STAGES,
	ID_PREFIXES,
	SENIORITIES,
	type Seniority,
} from '../nodes/ContactData/shared/client/contract';
import { companyBase, freeDomain } from './companyNames.cjs';
import { ID_LENGTH, mixIndex, unmixIndex } from './ids.cjs';
import { hash32, seededRandom, weightedPicker } from './random.cjs';
import { fold, slug, wordsOf } from './text.cjs';
import {
	CITIES,
	COMPANY_SUFFIXES,
	DEPARTMENTS,
	DOMAIN_TLDS,
	FIRST_NAMES,
	INDUSTRIES,
	LAST_NAMES,
	SENIORITY_WEIGHTS,
	TECHNOLOGIES,
	titlesOf,
} from './vocab.cjs';

/** Flags of a contact (one byte each). */
const FLAG = {
	hasEmail: 1,
	/** The email is a pattern guess (`email_status: "guessed"`): these are the ones that bounce. */
	emailGuessed: 2,
	hasPhone: 4,
	hasMobile: 8,
	hasLinkedin: 16,
	/** The title on file is out of date: a `wrong_title` claim is justified. */
	wrongTitle: 32,
} as const;

export interface TitleEntry {
	title: string;
	seniority: Seniority;
	department: string;
	/** Lower-case words, for keyword matching. */
	words: string[];
}

export interface CityEntry {
	city: string;
	region: string;
	country: string;
	dial: string;
	words: string[];
}

export interface WorkHistoryEntry {
	title: string | null;
	company: string | null;
	start: string | null;
	end: string | null;
}

interface Mutation {
	title: number;
	company: number;
}

export class Dataset {
	readonly size: number;
	readonly seed: number;
	private readonly idKey: number;

	// Vocabularies.
	readonly firstNames = FIRST_NAMES;
	readonly lastNames = LAST_NAMES;
	readonly firstNameWords: string[][];
	readonly lastNameWords: string[][];
	readonly titles: TitleEntry[] = [];
	readonly cities: CityEntry[];
	/** Title indexes per department (index into DEPARTMENTS) and seniority (index into SENIORITIES). */
	private readonly titlesByRole: number[][][];

	// Companies, column-wise.
	readonly companyCount: number;
	readonly companyName: string[] = [];
	readonly companyDomain: string[] = [];
	readonly companyWords: string[][] = [];
	readonly companyIndustry: Uint8Array;
	readonly companySize: Uint32Array;
	readonly companyFunding: Uint8Array;
	/** Bit set over TECHNOLOGIES. */
	readonly companyTech: Uint32Array;
	readonly companyCity: Uint16Array;
	readonly companyTechList: string[][] = [];

	// Contacts, column-wise.
	readonly first: Uint16Array;
	readonly last: Uint16Array;
	readonly title: Uint16Array;
	readonly company: Uint32Array;
	readonly city: Uint16Array;
	readonly flags: Uint8Array;

	/** Bumped whenever a contact changes, so cached counts know to recount. */
	version = 0;
	/** Original title and company of contacts changed by events (restored by a reset). */
	private readonly originals = new Map<number, Mutation>();
	/** Jobs left through events, newest first. */
	private readonly pastJobs = new Map<number, WorkHistoryEntry[]>();
	/** Start date of the current job of contacts changed by events. */
	private readonly jobStarts = new Map<number, string>();

	constructor(size: number, seed: number) {
		this.size = size;
		this.seed = seed;
		this.idKey = hash32(seed, 0x1d) >>> 0;

		this.firstNameWords = FIRST_NAMES.map(wordsOf);
		this.lastNameWords = LAST_NAMES.map(wordsOf);
		this.cities = CITIES.map((entry) => ({ ...entry, words: wordsOf(entry.city) }));

		this.titlesByRole = DEPARTMENTS.map((department) =>
			SENIORITIES.map((seniority) =>
				titlesOf(department, seniority).map((title) => {
					this.titles.push({ title, seniority, department: department.key, words: wordsOf(title) });
					return this.titles.length - 1;
				}),
			),
		);

		this.companyCount = Math.max(50, Math.ceil(size / 20));
		this.companyIndustry = new Uint8Array(this.companyCount);
		this.companySize = new Uint32Array(this.companyCount);
		this.companyFunding = new Uint8Array(this.companyCount);
		this.companyTech = new Uint32Array(this.companyCount);
		this.companyCity = new Uint16Array(this.companyCount);
		const random = seededRandom(seed);
		this.generateCompanies(random);

		this.first = new Uint16Array(size);
		this.last = new Uint16Array(size);
		this.title = new Uint16Array(size);
		this.company = new Uint32Array(size);
		this.city = new Uint16Array(size);
		this.flags = new Uint8Array(size);
		this.generateContacts(random);
	}

	private generateCompanies(random: () => number): void {
		const pickCity = weightedPicker(
			this.cities.map((_, index) => index),
			(index) => CITIES[index].weight,
		);
		const usedNames = new Set<string>();
		const usedDomains = new Set<string>();
		const nameRandom = seededRandom(hash32(this.seed, 0x4e));
		for (let c = 0; c < this.companyCount; c++) {
			// Five draws of the shared stream name a company (so the contacts drawn after the companies
			// stay the same); a name or domain already taken is drawn again from a stream of its own.
			let draws = [random(), random(), random(), random(), random()];
			let base = '';
			let name = '';
			for (let attempt = 0; attempt < 8 && (name === '' || usedNames.has(name)); attempt++) {
				if (attempt > 0) draws = [nameRandom(), nameRandom(), nameRandom(), nameRandom(), draws[4]];
				base = companyBase(draws[0], draws[1], draws[3]);
				name = `${base}${COMPANY_SUFFIXES[Math.floor(draws[2] * COMPANY_SUFFIXES.length)]}`;
			}
			for (let n = 2; usedNames.has(name); n++) name = `${base} ${n}`;
			usedNames.add(name);
			const tld = DOMAIN_TLDS[Math.floor(draws[4] * DOMAIN_TLDS.length)];
			const domain = freeDomain(fold(base).replace(/[^a-z0-9]/g, ''), tld, usedDomains);
			usedDomains.add(domain);
			this.companyName.push(name);
			this.companyDomain.push(domain);
			this.companyWords.push(wordsOf(name));

			// Sizes are log-distributed and skewed small; funding follows size.
			const size = Math.max(1, Math.round(Math.exp(Math.pow(random(), 1.6) * Math.log(250_000))));
			this.companySize[c] = size;
			this.companyIndustry[c] = Math.floor(random() * INDUSTRIES.length);
			this.companyFunding[c] = FUNDING_STAGES.indexOf(this.fundingFor(size, random()));
			let tech = 0;
			const stackSize = 2 + Math.floor(random() * 6);
			for (let t = 0; t < stackSize; t++) tech |= 1 << Math.floor(random() * TECHNOLOGIES.length);
			this.companyTech[c] = tech >>> 0;
			this.companyTechList.push(TECHNOLOGIES.filter((_, bit) => (tech & (1 << bit)) !== 0));
			this.companyCity[c] = pickCity(random());
		}
	}

	private fundingFor(size: number, random: number): (typeof FUNDING_STAGES)[number] {
		if (size < 15) return (['pre_seed', 'seed', 'bootstrapped'] as const)[Math.floor(random * 3)];
		if (size < 80) return (['seed', 'series_a', 'bootstrapped'] as const)[Math.floor(random * 3)];
		if (size < 400)
			return (['series_a', 'series_b', 'series_c', 'debt'] as const)[Math.floor(random * 4)];
		if (size < 3_000)
			return (['series_c', 'series_d', 'series_e', 'series_f', 'private_equity'] as const)[
				Math.floor(random * 5)
			];
		return (
			[
				'series_g',
				'series_h',
				'series_i',
				'series_j',
				'ipo',
				'ipo',
				'acquired',
				'private_equity',
			] as const
		)[Math.floor(random * 8)];
	}

	private generateContacts(random: () => number): void {
		const executive = DEPARTMENTS.findIndex((department) => department.key === 'executive');
		const pickDepartment = weightedPicker(
			DEPARTMENTS.map((_, index) => index),
			(index) => DEPARTMENTS[index].weight,
		);
		const pickSeniority = weightedPicker(
			SENIORITIES.map((_, index) => index),
			(index) => SENIORITY_WEIGHTS[SENIORITIES[index]],
		);
		const pickCity = weightedPicker(
			this.cities.map((_, index) => index),
			(index) => CITIES[index].weight,
		);
		// Larger companies have more people on file.
		const pickCompany = weightedPicker(
			Array.from({ length: this.companyCount }, (_, c) => c),
			(c) => Math.sqrt(Math.min(this.companySize[c], 300)),
		);
		const firstCount = FIRST_NAMES.length;
		const lastCount = LAST_NAMES.length;
		for (let i = 0; i < this.size; i++) {
			this.first[i] = Math.floor(random() * firstCount);
			this.last[i] = Math.floor(random() * lastCount);
			const company = pickCompany(random());
			this.company[i] = company;
			let department = pickDepartment(random());
			const seniority = pickSeniority(random());
			let candidates = this.titlesByRole[department][seniority];
			if (candidates.length === 0) {
				department = executive;
				candidates = this.titlesByRole[department][seniority];
			}
			this.title[i] = candidates[Math.floor(random() * candidates.length)];
			this.city[i] = random() < 0.7 ? this.companyCity[company] : pickCity(random());
			const roll = random();
			let flags = 0;
			if (roll < 0.94) flags |= FLAG.hasEmail;
			if (roll < 0.94 && random() < 0.15) flags |= FLAG.emailGuessed;
			if (random() < 0.6) flags |= FLAG.hasPhone;
			if (random() < 0.45) flags |= FLAG.hasMobile;
			if (random() < 0.9) flags |= FLAG.hasLinkedin;
			if (random() < 0.04) flags |= FLAG.wrongTitle;
			this.flags[i] = flags;
		}
	}

	// --- ids -------------------------------------------------------------------------------------

	idOf(index: number): string {
		return ID_PREFIXES.contact + mixIndex(index, this.idKey).toString(36).padStart(ID_LENGTH, '0');
	}

	/** The index of a contact id, or -1 when no such contact exists. */
	indexOf(id: unknown): number {
		if (typeof id !== 'string' || id.length !== ID_PREFIXES.contact.length + ID_LENGTH) return -1;
		if (!id.startsWith(ID_PREFIXES.contact)) return -1;
		const code = id.slice(ID_PREFIXES.contact.length);
		if (!/^[0-9a-z]+$/.test(code)) return -1;
		const value = parseInt(code, 36);
		if (value > 0xffffffff) return -1;
		const index = unmixIndex(value, this.idKey);
		return index < this.size ? index : -1;
	}

	// --- derived details -------------------------------------------------------------------------

	/** The industry of a company (an index into the companies). */
	industryOf(company: number): string {
		return INDUSTRIES[this.companyIndustry[company]];
	}

	fundingStageOf(company: number): (typeof FUNDING_STAGES)[number] {
		return FUNDING_STAGES[this.companyFunding[company]];
	}

	hasEmail(index: number): boolean {
		return (this.flags[index] & FLAG.hasEmail) !== 0;
	}

	hasPhone(index: number): boolean {
		return (this.flags[index] & (FLAG.hasPhone | FLAG.hasMobile)) !== 0;
	}

	emailStatus(index: number): 'verified' | 'guessed' | null {
		if (!this.hasEmail(index)) return null;
		return (this.flags[index] & FLAG.emailGuessed) !== 0 ? 'guessed' : 'verified';
	}

	/** The last name as shown: in full once unlocked, else its initial ("L."). */
	lastName(index: number, unlocked: boolean): string {
		const name = LAST_NAMES[this.last[index]];
		return unlocked ? name : `${name.charAt(0)}.`;
	}

	/** Verified emails follow first.last@; guessed ones another common pattern (flast@). */
	email(index: number): string | null {
		if (!this.hasEmail(index)) return null;
		const first = slug(FIRST_NAMES[this.first[index]]);
		const last = slug(LAST_NAMES[this.last[index]]);
		const local =
			(this.flags[index] & FLAG.emailGuessed) !== 0
				? `${first.charAt(0)}${last}`
				: `${first}.${last}`;
		return `${local}@${this.companyDomain[this.company[index]]}`;
	}

	linkedinUrl(index: number): string | null {
		if ((this.flags[index] & FLAG.hasLinkedin) === 0) return null;
		const first = slug(FIRST_NAMES[this.first[index]]);
		const last = slug(LAST_NAMES[this.last[index]]);
		const code = this.idOf(index).slice(ID_PREFIXES.contact.length);
		return `https://www.linkedin.com/in/${first}-${last}-${code}`;
	}

	/** The contact a LinkedIn URL names, or -1. */
	indexOfLinkedinUrl(url: string): number {
		const match = /\/in\/([^/?#\s]+?)\/?$/i.exec(url);
		if (!match) return -1;
		const handle = match[1].toLowerCase();
		const code = handle.slice(handle.lastIndexOf('-') + 1);
		const index = this.indexOf(ID_PREFIXES.contact + code);
		if (index < 0 || this.linkedinUrl(index)?.toLowerCase().endsWith(`/in/${handle}`) !== true)
			return -1;
		return index;
	}

	/** The first contact whose current email is this address, or -1. */
	indexOfEmail(email: string): number {
		const address = email.trim().toLowerCase();
		const company = this.companyDomain.indexOf(address.slice(address.lastIndexOf('@') + 1));
		if (company < 0) return -1;
		const companies = this.company;
		for (let i = 0; i < this.size; i++) {
			if (companies[i] === company && this.email(i) === address) return i;
		}
		return -1;
	}

	private phoneNumber(index: number, salt: number): string {
		const dial = this.cities[this.city[index]].dial;
		const digits = `${2 + (index % 8)}${String(hash32(this.seed ^ salt, index) % 1_000_000_000).padStart(9, '0')}`;
		return `${dial} ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
	}

	phone(index: number): string | null {
		return (this.flags[index] & FLAG.hasPhone) === 0 ? null : this.phoneNumber(index, 0x51);
	}

	mobilePhone(index: number): string | null {
		return (this.flags[index] & FLAG.hasMobile) === 0 ? null : this.phoneNumber(index, 0x77);
	}

	/** Current job first, then earlier ones (those left through events, then generated ones). */
	workHistory(index: number): WorkHistoryEntry[] {
		const h = hash32(this.seed ^ 0x3c, index);
		const currentStartYear = 2016 + (h % 9);
		const month = String(1 + ((h >>> 4) % 12)).padStart(2, '0');
		// A contact whose title on file is out of date holds another title in fact (a wrong_title claim is fair).
		const outdated = (this.flags[index] & FLAG.wrongTitle) !== 0 && !this.jobStarts.has(index);
		const currentTitle = outdated
			? this.promotionOf(this.title[index], (h >>> 20) / 4096)
			: this.title[index];
		const history: WorkHistoryEntry[] = [
			{
				title: this.titles[currentTitle].title,
				company: this.companyName[this.company[index]],
				start: this.jobStarts.get(index) ?? `${currentStartYear}-${month}-01`,
				end: null,
			},
		];
		history.push(...(this.pastJobs.get(index) ?? []));
		const earlier = (h >>> 8) % 3;
		let end = currentStartYear;
		for (let j = 0; j < earlier; j++) {
			const hj = hash32(h, j);
			const start = end - 1 - (hj % 4);
			const pastTitle = this.titles[hj % this.titles.length];
			history.push({
				title: pastTitle.title,
				company: this.companyName[(hj >>> 3) % this.companyCount],
				start: `${start}-${month}-01`,
				end: `${end}-${month}-01`,
			});
			end = start;
		}
		return history;
	}

	// --- changes (webhook events) ----------------------------------------------------------------

	/** Moves a contact to another company (a job change), keeping a title of its department. */
	changeJob(index: number, random: () => number, at: Date): void {
		let company = Math.floor(random() * this.companyCount);
		if (company === this.company[index]) company = (company + 1) % this.companyCount;
		const entry = this.titles[this.title[index]];
		const department = DEPARTMENTS.findIndex((candidate) => candidate.key === entry.department);
		const seniority = SENIORITIES.indexOf(entry.seniority);
		const candidates = this.titlesByRole[department][seniority];
		this.apply(index, candidates[Math.floor(random() * candidates.length)], company, at);
	}

	/** Gives a contact a new title at the same company (a role change, usually a promotion). */
	changeRole(index: number, random: () => number, at: Date): void {
		this.apply(index, this.promotionOf(this.title[index], random()), this.company[index], at);
	}

	/** Another title of the same department, one step up the ladder where there is one. */
	private promotionOf(title: number, random: number): number {
		const entry = this.titles[title];
		const department = DEPARTMENTS.findIndex((candidate) => candidate.key === entry.department);
		let seniority = SENIORITIES.indexOf(entry.seniority);
		// The list runs from most to least senior.
		for (let step = seniority - 1; step >= 0; step--) {
			if (this.titlesByRole[department][step].length > 0) {
				seniority = step;
				break;
			}
		}
		let candidates = this.titlesByRole[department][seniority].filter((t) => t !== title);
		if (candidates.length === 0)
			candidates = this.titles.map((_, t) => t).filter((t) => t !== title);
		return candidates[Math.floor(random * candidates.length)];
	}

	private apply(index: number, title: number, company: number, at: Date): void {
		if (!this.originals.has(index)) {
			this.originals.set(index, { title: this.title[index], company: this.company[index] });
		}
		const day = at.toISOString().slice(0, 10);
		const current = this.workHistory(index)[0];
		this.pastJobs.set(index, [{ ...current, end: day }, ...(this.pastJobs.get(index) ?? [])]);
		this.jobStarts.set(index, day);
		this.title[index] = title;
		this.company[index] = company;
		this.version++;
	}

	/** Undoes every change made by events. */
	restore(): void {
		for (const [index, original] of this.originals) {
			this.title[index] = original.title;
			this.company[index] = original.company;
		}
		this.originals.clear();
		this.pastJobs.clear();
		this.jobStarts.clear();
		this.version++;
	}
}
