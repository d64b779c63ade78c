// Customers' words in a staff notification are quoted, never spliced into the template:
// every line starts with "> ", so a message holding "Unidade: X" or a fake link line can
// never look like a line the site wrote. Bodies are plain text; headers are
// built by nodemailer from vetted one-line values only.

/** "a\nb" → "> a\n> b" (an empty line stays quoted: ">"). */
export function quoteCustomerText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}
