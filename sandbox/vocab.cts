/**
 * Vocabularies of the sandbox's generated data set. Contacts store indexes into these lists,
 * so every filter is evaluated once per entry here, then by a scan over typed arrays.
 */
import {
	KNOWN_INDUSTRIES,
	KNOWN_TECH_STACK,
	type Seniority,
} from '../nodes/ContactData/shared/client/contract';

export const FIRST_NAMES = [
	'Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'John', 'Katherine',
	'Tim', 'Radia', 'Vint', 'Sophie', 'Guido', 'Hedy', 'James', 'Mary', 'Robert', 'Patricia', 'Michael',
	'Jennifer', 'William', 'Linda', 'David', 'Elizabeth', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas',
	'Sarah', 'Charles', 'Karen', 'Christopher', 'Nancy', 'Daniel', 'Lisa', 'Matthew', 'Betty', 'Anthony',
	'Sandra', 'Mark', 'Ashley', 'Donald', 'Kimberly', 'Steven', 'Emily', 'Paul', 'Donna', 'Andrew', 'Michelle',
	'Joshua', 'Carol', 'Kenneth', 'Amanda', 'Kevin', 'Melissa', 'Brian', 'Deborah', 'George', 'Stephanie',
	'Timothy', 'Rebecca', 'Ronald', 'Laura', 'Jason', 'Helen', 'Edward', 'Amy', 'Jeffrey', 'Anna', 'Ryan',
	'Nicole', 'Jacob', 'Emma', 'Gary', 'Olivia', 'Nicholas', 'Ava', 'Eric', 'Mia', 'Jonathan', 'Chloe',
	'Stephen', 'Camille', 'Larry', 'Léa', 'Justin', 'Manon', 'Scott', 'Lukas', 'Brandon', 'Hannah', 'Benjamin',
	'Lena', 'Samuel', 'Mila', 'Gregory', 'Noah', 'Alexander', 'Liam', 'Patrick', 'Lucas', 'Frank', 'Mateo',
	'Raymond', 'Sofia', 'Jack', 'Valentina', 'Dennis', 'Isabella', 'Jerry', 'Lucía', 'Tyler', 'Martina',
	'Aaron', 'Priya', 'Jose', 'Arjun', 'Adam', 'Ananya', 'Nathan', 'Rohan', 'Henry', 'Aditi', 'Zachary',
	'Vikram', 'Douglas', 'Meera', 'Peter', 'Wei', 'Kyle', 'Li', 'Noel', 'Yuki', 'Ethan', 'Haruto', 'Jeremy',
	'Sakura', 'Walter', 'Min-jun', 'Christian', 'Ji-woo', 'Keith', 'Omar', 'Roger', 'Fatima', 'Terry', 'Aisha',
	'Austin', 'Youssef', 'Sean', 'Leila', 'Gerald', 'Mohammed', 'Carl', 'Nour', 'Dylan', 'Chidi', 'Harold',
	'Amara', 'Jordan', 'Kwame', 'Jesse', 'Zanele', 'Bryan', 'Ingrid', 'Lawrence', 'Astrid', 'Arthur', 'Freya',
	'Gabriel', 'Sven', 'Bruce', 'Elin', 'Logan', 'Mateus', 'Billy', 'Beatriz', 'Joe', 'Thiago', 'Alan', 'Ana',
	'Juan', 'Camila', 'Elijah', 'Diego', 'Willie', 'Ximena', 'Albert', 'Niamh', 'Wayne', 'Aoife', 'Randy',
	'Cian', 'Mason', 'Saoirse', 'Vincent', 'Tomás', 'Liam', 'Yara', 'Roy', 'Noa', 'Ralph', 'Itai', 'Eugene',
];

export const LAST_NAMES = [
	'Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Backus',
	'Johnson', 'Berners-Lee', 'Perlman', 'Cerf', 'Wilson', 'van Rossum', 'Lamarr', 'Gosling', 'Smith', 'Brown',
	'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Anderson',
	'Taylor', 'Thomas', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'White', 'Harris', 'Sanchez', 'Clark',
	'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill',
	'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter',
	'Roberts', 'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes',
	'Stewart', 'Morris', 'Morales', 'Murphy', 'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper',
	'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson', 'Watson',
	'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza', 'Ruiz', 'Hughes', 'Price', 'Alvarez',
	'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross', 'Foster', 'Jimenez', 'Powell', 'Jenkins', 'Perry',
	'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler', 'Henderson', 'Barnes', 'Gonzales', 'Fisher',
	'Vasquez', 'Simmons', 'Romero', 'Jordan', 'Patterson', 'Alexander', 'Hamilton', 'Graham', 'Reynolds',
	'Griffin', 'Wallace', 'Moreno', 'West', 'Cole', 'Hayes', 'Bryant', 'Herrera', 'Gibson', 'Ellis', 'Tran',
	'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford', 'Castro', 'Marshall', 'Owens', 'Harrison', 'Fernandez',
	'McDonald', 'Woods', 'Washington', 'Kennedy', 'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman', 'Webb',
	'Tucker', 'Guzman', 'Burns', 'Crawford', 'Olson', 'Simpson', 'Porter', 'Hunter', 'Gordon', 'Mendez',
	'Silva', 'Shaw', 'Snyder', 'Mason', 'Dixon', 'Muñoz', 'Hunt', 'Hicks', 'Holmes', 'Palmer', 'Wagner',
	'Black', 'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar', 'Fox', 'Warren', 'Mills', 'Meyer', 'Rice',
	'Schmidt', 'Müller', 'Schneider', 'Fischer', 'Weber', 'Becker', 'Schulz', 'Hoffmann', 'Dubois', 'Lefebvre',
	'Moreau', 'Laurent', 'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Kowalski', 'Nowak',
	'Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Larsen', 'Hansen', 'de Vries', 'Jansen', 'Bakker',
	'Visser', "O'Brien", "O'Connor", 'Byrne', 'Ryan', 'Walsh', 'Sharma', 'Singh', 'Gupta', 'Iyer', 'Reddy',
	'Nair', 'Wang', 'Zhang', 'Liu', 'Yang', 'Huang', 'Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe',
	'Park', 'Choi', 'Jung', 'Kang', 'Cohen', 'Levi', 'Mizrahi', 'Haddad', 'Khalil', 'Mansour', 'Okafor',
	'Adeyemi', 'Mensah', 'Dlamini', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Costa', 'Almeida', 'Novak',
];

export interface DepartmentVocab {
	key: string;
	label: string;
	chief: string[];
	individual: string[];
	weight: number;
}

export const DEPARTMENTS: DepartmentVocab[] = [
	{
		key: 'engineering',
		label: 'Engineering',
		chief: ['Chief Technology Officer', 'CTO'],
		individual: ['Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'DevOps Engineer', 'Site Reliability Engineer', 'QA Engineer', 'Mobile Engineer', 'Platform Engineer'],
		weight: 20,
	},
	{
		key: 'sales',
		label: 'Sales',
		chief: ['Chief Revenue Officer', 'CRO', 'Chief Sales Officer'],
		individual: ['Account Executive', 'Sales Development Representative', 'Business Development Representative', 'Account Manager', 'Sales Engineer'],
		weight: 18,
	},
	{
		key: 'marketing',
		label: 'Marketing',
		chief: ['Chief Marketing Officer', 'CMO'],
		individual: ['Marketing Specialist', 'Content Marketer', 'Growth Marketer', 'Demand Generation Specialist', 'SEO Specialist', 'Brand Strategist'],
		weight: 11,
	},
	{
		key: 'product',
		label: 'Product',
		chief: ['Chief Product Officer', 'CPO'],
		individual: ['Product Manager', 'Product Owner', 'Technical Product Manager', 'Product Analyst'],
		weight: 7,
	},
	{
		key: 'design',
		label: 'Design',
		chief: ['Chief Design Officer'],
		individual: ['Product Designer', 'UX Designer', 'UI Designer', 'UX Researcher', 'Graphic Designer'],
		weight: 4,
	},
	{
		key: 'data',
		label: 'Data',
		chief: ['Chief Data Officer', 'Chief Analytics Officer'],
		individual: ['Data Scientist', 'Data Analyst', 'Data Engineer', 'Machine Learning Engineer', 'Analytics Engineer'],
		weight: 6,
	},
	{
		key: 'finance',
		label: 'Finance',
		chief: ['Chief Financial Officer', 'CFO'],
		individual: ['Financial Analyst', 'Accountant', 'Controller', 'FP&A Analyst', 'Payroll Specialist'],
		weight: 7,
	},
	{
		key: 'operations',
		label: 'Operations',
		chief: ['Chief Operating Officer', 'COO'],
		individual: ['Operations Analyst', 'Operations Specialist', 'Supply Chain Analyst', 'Procurement Specialist', 'Project Manager'],
		weight: 8,
	},
	{
		key: 'human_resources',
		label: 'People',
		chief: ['Chief People Officer', 'Chief Human Resources Officer'],
		individual: ['HR Generalist', 'Recruiter', 'Talent Acquisition Specialist', 'HR Business Partner', 'People Operations Specialist'],
		weight: 5,
	},
	{
		key: 'legal',
		label: 'Legal',
		chief: ['Chief Legal Officer', 'General Counsel'],
		individual: ['Corporate Counsel', 'Paralegal', 'Legal Counsel', 'Compliance Analyst'],
		weight: 2,
	},
	{
		key: 'customer_success',
		label: 'Customer Success',
		chief: ['Chief Customer Officer'],
		individual: ['Customer Success Manager', 'Support Engineer', 'Customer Support Specialist', 'Implementation Consultant', 'Solutions Consultant'],
		weight: 7,
	},
	{
		key: 'information_technology',
		label: 'IT',
		chief: ['Chief Information Officer', 'CIO', 'Chief Information Security Officer', 'CISO'],
		individual: ['IT Administrator', 'Systems Administrator', 'IT Support Specialist', 'Security Engineer', 'Network Engineer'],
		weight: 4,
	},
	{
		key: 'executive',
		label: 'Executive',
		chief: ['Chief Executive Officer', 'CEO', 'President'],
		individual: ['Chief of Staff', 'Executive Assistant', 'Strategy Associate'],
		weight: 1,
	},
];

/** Seniority weights of generated contacts (per mille, roughly). */
export const SENIORITY_WEIGHTS: Record<Seniority, number> = {
	owner: 12,
	founder: 18,
	c_suite: 20,
	partner: 8,
	vp: 40,
	head: 35,
	director: 80,
	manager: 160,
	senior: 250,
	entry: 340,
	intern: 37,
};

/** Titles of one department at one seniority (executive-only seniorities go to `executive`). */
export function titlesOf(department: DepartmentVocab, seniority: Seniority): string[] {
	const { label, individual } = department;
	switch (seniority) {
		case 'owner':
			return department.key === 'executive' ? ['Owner', 'Owner & Managing Director', 'Co-Owner'] : [];
		case 'founder':
			return department.key === 'executive'
				? ['Founder', 'Co-Founder', 'Founder & CEO', 'Co-Founder & CTO', 'Co-Founder & COO']
				: [];
		case 'partner':
			return department.key === 'executive' ? ['Partner', 'Managing Partner', 'General Partner'] : [];
		case 'c_suite':
			return department.chief;
		case 'vp':
			return [`VP ${label}`, `VP of ${label}`, `Vice President of ${label}`, `SVP ${label}`];
		case 'head':
			return [`Head of ${label}`, `Global Head of ${label}`];
		case 'director':
			return [`Director of ${label}`, `${label} Director`, `Senior Director of ${label}`];
		case 'manager':
			return [`${label} Manager`, `${label} Team Lead`, `${individual[0]} Manager`];
		case 'senior':
			return individual.flatMap((role) => [`Senior ${role}`, `Lead ${role}`]);
		case 'entry':
			return [...individual, `Junior ${individual[0]}`];
		case 'intern':
			return [`${label} Intern`, `${individual[0]} Intern`];
	}
}

/** The contract's list: the values clients offer are the ones the data set holds. */
export const INDUSTRIES: readonly string[] = KNOWN_INDUSTRIES;

/** At most 32 technologies: a company's stack is a bit set in one 32-bit word. */
export const TECHNOLOGIES: readonly string[] = KNOWN_TECH_STACK;

export const COMPANY_NAME_FIRST = [
	'Acme', 'Blue', 'Bright', 'North', 'Silver', 'Iron', 'Red', 'Green', 'Cloud', 'Quantum', 'Nova', 'Apex',
	'Summit', 'Pioneer', 'Vertex', 'Stellar', 'Harbor', 'Pine', 'Cedar', 'Granite', 'Swift', 'Lumen', 'Atlas',
	'Orbit', 'Polar', 'Crimson', 'Golden', 'Evergreen', 'Falcon', 'Beacon', 'Cobalt', 'Echo', 'Zenith', 'Prism',
	'Sterling', 'Horizon', 'Meridian', 'Keystone', 'Maple', 'Oak', 'River', 'Stone', 'Sun', 'Star', 'Wave',
	'Arrow', 'Bold', 'Clear', 'Deep', 'Fair', 'First', 'Grand', 'High', 'Key', 'Light', 'Nimble', 'Open', 'Prime',
	'Rapid', 'Sharp', 'Smart', 'True', 'Vivid', 'Wild', 'Alpine', 'Coastal', 'Urban', 'Global', 'United', 'Hyper',
	'Terra', 'Aqua', 'Solar', 'Lunar', 'Ember', 'Frost', 'Velvet', 'Copper', 'Onyx', 'Sage', 'Indigo', 'Amber',
	'Ivory', 'Jade', 'Ruby', 'Saffron', 'Teal', 'Violet', 'Bay', 'Delta', 'Fjord', 'Mesa', 'Ridge', 'Canyon',
];

export const COMPANY_NAME_SECOND = [
	'Labs', 'Systems', 'Works', 'Logic', 'Data', 'Soft', 'Wave', 'Path', 'Point', 'Bridge', 'Forge', 'Stack',
	'Scale', 'Flow', 'Grid', 'Hub', 'Line', 'Link', 'Mind', 'Net', 'Ops', 'Peak', 'Pulse', 'Shift', 'Signal',
	'Sphere', 'Spark', 'Sync', 'Track', 'Vault', 'View', 'Ware', 'Yard', 'Gate', 'Field', 'Craft', 'Core',
	'Cast', 'Base', 'Bank', 'Beam', 'Bit', 'Box', 'Cart', 'Cell', 'Chain', 'Desk', 'Dock', 'Edge', 'Fleet',
	'Health', 'Insight', 'Leaf', 'Ledger', 'Loop', 'Mark', 'Metrics', 'Motion', 'Nest', 'Pay', 'Port', 'Quest',
];

export const COMPANY_NAME_SECTORS = [
	'Health', 'Logistics', 'Robotics', 'Energy', 'Foods', 'Media', 'Bank', 'Insurance', 'Motors', 'Pharma',
	'Security', 'Studios', 'Games', 'Learning', 'Realty', 'Ventures', 'Consulting', 'Networks', 'Biotech',
	'Aerospace', 'Retail', 'Software', 'Telecom', 'Materials', 'Devices', 'Mobility', 'Foundry', 'Clinics',
];

/** Endings of one-word brand names ("Pathly", "Ledgerify"). */
export const COMPANY_NAME_ENDINGS = ['ly', 'ify', 'io', 'hub', 'wise', 'able', 'era', 'ster', 'nova', 'base'];

export const COMPANY_SUFFIXES = ['', '', '', '', ' Inc', ' Group', ' Technologies', ' Partners', ' Co', ' Solutions', ' Analytics', ' Health', ' Capital', ' Studio'];

export const DOMAIN_TLDS = ['com', 'com', 'com', 'io', 'ai', 'co', 'net', 'dev', 'app', 'tech'];

export interface CityVocab {
	city: string;
	region: string;
	country: string;
	weight: number;
	/** Dialling code of the country, for phone numbers. */
	dial: string;
}

export const CITIES: CityVocab[] = [
	{ city: 'San Francisco', region: 'CA', country: 'US', weight: 40, dial: '+1' },
	{ city: 'Los Angeles', region: 'CA', country: 'US', weight: 25, dial: '+1' },
	{ city: 'San Diego', region: 'CA', country: 'US', weight: 10, dial: '+1' },
	{ city: 'San Jose', region: 'CA', country: 'US', weight: 12, dial: '+1' },
	{ city: 'New York', region: 'NY', country: 'US', weight: 45, dial: '+1' },
	{ city: 'Brooklyn', region: 'NY', country: 'US', weight: 8, dial: '+1' },
	{ city: 'Boston', region: 'MA', country: 'US', weight: 18, dial: '+1' },
	{ city: 'Cambridge', region: 'MA', country: 'US', weight: 6, dial: '+1' },
	{ city: 'Seattle', region: 'WA', country: 'US', weight: 18, dial: '+1' },
	{ city: 'Austin', region: 'TX', country: 'US', weight: 15, dial: '+1' },
	{ city: 'Dallas', region: 'TX', country: 'US', weight: 12, dial: '+1' },
	{ city: 'Houston', region: 'TX', country: 'US', weight: 10, dial: '+1' },
	{ city: 'Chicago', region: 'IL', country: 'US', weight: 18, dial: '+1' },
	{ city: 'Denver', region: 'CO', country: 'US', weight: 9, dial: '+1' },
	{ city: 'Atlanta', region: 'GA', country: 'US', weight: 10, dial: '+1' },
	{ city: 'Miami', region: 'FL', country: 'US', weight: 8, dial: '+1' },
	{ city: 'Washington', region: 'DC', country: 'US', weight: 9, dial: '+1' },
	{ city: 'Philadelphia', region: 'PA', country: 'US', weight: 7, dial: '+1' },
	{ city: 'Portland', region: 'OR', country: 'US', weight: 6, dial: '+1' },
	{ city: 'Salt Lake City', region: 'UT', country: 'US', weight: 5, dial: '+1' },
	{ city: 'Raleigh', region: 'NC', country: 'US', weight: 5, dial: '+1' },
	{ city: 'Minneapolis', region: 'MN', country: 'US', weight: 5, dial: '+1' },
	{ city: 'Toronto', region: 'ON', country: 'CA', weight: 14, dial: '+1' },
	{ city: 'Vancouver', region: 'BC', country: 'CA', weight: 7, dial: '+1' },
	{ city: 'Montreal', region: 'QC', country: 'CA', weight: 6, dial: '+1' },
	{ city: 'London', region: 'ENG', country: 'GB', weight: 30, dial: '+44' },
	{ city: 'Manchester', region: 'ENG', country: 'GB', weight: 6, dial: '+44' },
	{ city: 'Edinburgh', region: 'SCT', country: 'GB', weight: 4, dial: '+44' },
	{ city: 'Dublin', region: 'D', country: 'IE', weight: 8, dial: '+353' },
	{ city: 'Berlin', region: 'BE', country: 'DE', weight: 14, dial: '+49' },
	{ city: 'Munich', region: 'BY', country: 'DE', weight: 8, dial: '+49' },
	{ city: 'Hamburg', region: 'HH', country: 'DE', weight: 5, dial: '+49' },
	{ city: 'Paris', region: 'IDF', country: 'FR', weight: 15, dial: '+33' },
	{ city: 'Lyon', region: 'ARA', country: 'FR', weight: 4, dial: '+33' },
	{ city: 'Amsterdam', region: 'NH', country: 'NL', weight: 9, dial: '+31' },
	{ city: 'Rotterdam', region: 'ZH', country: 'NL', weight: 3, dial: '+31' },
	{ city: 'Stockholm', region: 'AB', country: 'SE', weight: 6, dial: '+46' },
	{ city: 'Copenhagen', region: '84', country: 'DK', weight: 4, dial: '+45' },
	{ city: 'Oslo', region: '03', country: 'NO', weight: 3, dial: '+47' },
	{ city: 'Helsinki', region: '18', country: 'FI', weight: 3, dial: '+358' },
	{ city: 'Zurich', region: 'ZH', country: 'CH', weight: 4, dial: '+41' },
	{ city: 'Madrid', region: 'MD', country: 'ES', weight: 6, dial: '+34' },
	{ city: 'Barcelona', region: 'CT', country: 'ES', weight: 6, dial: '+34' },
	{ city: 'Lisbon', region: '11', country: 'PT', weight: 4, dial: '+351' },
	{ city: 'Milan', region: 'MI', country: 'IT', weight: 5, dial: '+39' },
	{ city: 'Warsaw', region: 'MZ', country: 'PL', weight: 4, dial: '+48' },
	{ city: 'Tel Aviv', region: 'TA', country: 'IL', weight: 6, dial: '+972' },
	{ city: 'Dubai', region: 'DU', country: 'AE', weight: 4, dial: '+971' },
	{ city: 'Bangalore', region: 'KA', country: 'IN', weight: 14, dial: '+91' },
	{ city: 'Mumbai', region: 'MH', country: 'IN', weight: 8, dial: '+91' },
	{ city: 'Hyderabad', region: 'TG', country: 'IN', weight: 6, dial: '+91' },
	{ city: 'Singapore', region: '01', country: 'SG', weight: 8, dial: '+65' },
	{ city: 'Tokyo', region: '13', country: 'JP', weight: 8, dial: '+81' },
	{ city: 'Seoul', region: '11', country: 'KR', weight: 5, dial: '+82' },
	{ city: 'Sydney', region: 'NSW', country: 'AU', weight: 9, dial: '+61' },
	{ city: 'Melbourne', region: 'VIC', country: 'AU', weight: 6, dial: '+61' },
	{ city: 'Auckland', region: 'AUK', country: 'NZ', weight: 3, dial: '+64' },
	{ city: 'São Paulo', region: 'SP', country: 'BR', weight: 8, dial: '+55' },
	{ city: 'Mexico City', region: 'CMX', country: 'MX', weight: 5, dial: '+52' },
	{ city: 'Buenos Aires', region: 'C', country: 'AR', weight: 3, dial: '+54' },
	{ city: 'Lagos', region: 'LA', country: 'NG', weight: 3, dial: '+234' },
	{ city: 'Cape Town', region: 'WC', country: 'ZA', weight: 3, dial: '+27' },
	{ city: 'Nairobi', region: '30', country: 'KE', weight: 2, dial: '+254' },
];

export const INTENT_TOPICS = [
	'crm software', 'data warehouse', 'sales engagement', 'cloud security', 'marketing automation',
	'customer data platform', 'observability', 'payroll software', 'applicant tracking', 'product analytics',
];
