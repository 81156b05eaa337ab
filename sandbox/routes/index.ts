/** Every route of the API (`/v1/...`). */
import type { Route } from '../router';
import { contactRoutes } from './contacts';
import { creditRoutes } from './credits';
import { exportRoutes } from './exports';
import { listRoutes } from './lists';
import { webhookRoutes } from './webhooks';

export const API_ROUTES: Route[] = [...contactRoutes, ...listRoutes, ...exportRoutes, ...webhookRoutes, ...creditRoutes];
