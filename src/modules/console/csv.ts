/** The exports' CSV cells: the kernel's (src/kernel/csv.ts), shared with the customer's statement (issue 43). */
export { csvCell, csvLine, koboText } from '../../kernel/csv.js';
