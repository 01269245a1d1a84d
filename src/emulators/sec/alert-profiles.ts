import type { Router } from '../core/index.js';
import type { SecContext } from './context.js';

/** Placeholder: this family's routes are added with its resources (issue 3). */
export function registerAlertProfileRoutes(_router: Router, _ctx: SecContext): void {}
