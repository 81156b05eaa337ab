export const API_PREFIX = '/v1';

/** Every path of the API, `:id` standing for the id a call is about: the sandbox routes by these. */
export const PATH_TEMPLATES = {
	search: `${API_PREFIX}/search`,
	unlock: `${API_PREFIX}/unlock`,
	enrich: `${API_PREFIX}/enrich`,
	lists: `${API_PREFIX}/lists`,
	list: `${API_PREFIX}/lists/:id`,
	listContacts: `${API_PREFIX}/lists/:id/contacts`,
	listExport: `${API_PREFIX}/lists/:id/export`,
	/** A bulk export's signed download (the query carries its expiry and signature). */
	exportDownload: `${API_PREFIX}/exports/:id`,
	webhooks: `${API_PREFIX}/webhooks`,
	webhook: `${API_PREFIX}/webhooks/:id`,
	creditsBalance: `${API_PREFIX}/credits/balance`,
	creditsRefund: `${API_PREFIX}/credits/refund`,
} as const;
export type Endpoint = keyof typeof PATH_TEMPLATES;

/** A template with its id filled in (escaped: an id cannot change the path). */
function pathOf(endpoint: Endpoint, id: string): string {
	return PATH_TEMPLATES[endpoint].replace(':id', encodeURIComponent(id));
}

export const PATHS = {
	...PATH_TEMPLATES,
	list: (listId: string) => pathOf('list', listId),
	listContacts: (listId: string) => pathOf('listContacts', listId),
	listExport: (listId: string) => pathOf('listExport', listId),
	exportDownload: (exportId: string) => pathOf('exportDownload', exportId),
	webhook: (webhookId: string) => pathOf('webhook', webhookId),
} as const;

/** The values of a template's `:name` parts in `path` (decoded); `null` when the path is not one of it. */
export function matchPathTemplate(template: string, path: string): Record<string, string> | null {
	const templateParts = template.split('/');
	const pathParts = path.split('/');
	if (templateParts.length !== pathParts.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < templateParts.length; i++) {
		const part = templateParts[i];
		if (!part.startsWith(':')) {
			if (part !== pathParts[i]) return null;
			continue;
		}
		if (pathParts[i] === '') return null;
		try {
			params[part.slice(1)] = decodeURIComponent(pathParts[i]);
		} catch {
			return null;
		}
	}
	return params;
}
