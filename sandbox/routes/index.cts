/** Every route of the API (`/v1/...`). */
import type { Route } from '../router.cjs';
import { unlockRoutes } from './unlock.cjs';
import { creditRoutes } from './credits.cjs';
import { exportRoutes } from './exports.cjs';
import { listRoutes } from './lists.cjs';
import { searchRoutes } from './search.cjs';
import { webhookRoutes } from './webhooks.cjs';

export const API_ROUTES: Route[] = [
	...searchRoutes,
	...unlockRoutes,
	...listRoutes,
	...exportRoutes,
	...webhookRoutes,
	...creditRoutes,
];
