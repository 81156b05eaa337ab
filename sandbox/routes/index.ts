/** Every route of the API (`/v1/...`). */
import type { Route } from '../router';
import { unlockRoutes } from './unlock';
import { creditRoutes } from './credits';
import { exportRoutes } from './exports';
import { listRoutes } from './lists';
import { searchRoutes } from './search';
import { webhookRoutes } from './webhooks';

export const API_ROUTES: Route[] = [
	...searchRoutes,
	...unlockRoutes,
	...listRoutes,
	...exportRoutes,
	...webhookRoutes,
	...creditRoutes,
];
