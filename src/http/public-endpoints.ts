/**
 * The public HTTP endpoints of spec 4.11 that are registered. Each module that adds one lists it here
 * (spec:coverage reads this list; the route itself is registered through addPublicRoutes).
 */
export const PUBLIC_ENDPOINTS: { method: 'GET' | 'POST'; path: string }[] = [];
PUBLIC_ENDPOINTS.push({ method: 'POST', path: '/api/public/login-failed' });
PUBLIC_ENDPOINTS.push({ method: 'POST', path: '/api/public/payments/webhook/processor' });
PUBLIC_ENDPOINTS.push({ method: 'POST', path: '/api/public/report-issue' });
