/** English: social services: the order tab and its progress on the result screen (issue 32). Its keys are the typed keys of t() (KindStrings, below). */
export const strings = {
  social: {
    service: 'Service',
    serviceRequired: 'Choose a service.',
    link: 'Link',
    linkInvalid: 'Enter the https link to the profile or post.',
    linkHelp: 'The public profile or post, starting with https://',
    quantity: 'Quantity',
    quantityRange: 'From {{min}} to {{max}}',
    per1000: '{{amount}} per 1,000',
    startCount: 'Count when we started: {{count}}',
    delivered: '{{delivered}} of {{quantity}} delivered',
    partRefunded: '{{remains}} could not be delivered: {{amount}} is back in your wallet.',
  },
};

declare module '../../../../app/kinds' {
  interface KindStrings {
    social: (typeof strings)['social'];
  }
}
