/** Lagos days and ranges of them: the kernel's (src/kernel/days.ts), shared with the customer's history (issue 43). */
export { lagosDay, lagosRange, type Range } from '../../kernel/days.js';
