/** English: flights: search, offers, travellers, the booking's PNR and tickets, cancellation (issue 32). Its keys are the typed keys of t() (KindStrings, below). */
export const strings = {
  flights: {
    search: 'Search flights',
    from: 'From',
    to: 'To',
    departure: 'Departure',
    return: 'Return',
    oneWay: 'Leave empty for a one-way trip',
    adults: 'Adults (12+)',
    children: 'Children (2-11)',
    infants: 'Infants (under 2)',
    cabin: 'Cabin',
    cabins: { economy: 'Economy', premium_economy: 'Premium economy', business: 'Business', first: 'First' },
    searchButton: 'Search',
    airportRequired: 'Choose an airport.',
    dateRequired: 'Choose a date.',
    offers: 'Flights found',
    noOffers: 'No flights found for this search. Try other dates.',
    refundable: 'Refundable, {{fee}} fee',
    nonRefundable: 'Not refundable',
    expires: 'Price held until {{time}}',
    choose: 'Choose this flight',
    travellers: 'Travellers',
    traveller: 'Traveller {{n}}',
    types: { adult: 'adult', child: 'child', infant: 'infant' },
    title: 'Title',
    titles: { mr: 'Mr', mrs: 'Mrs', ms: 'Ms', miss: 'Miss', master: 'Master' },
    firstName: 'First name (as on the passport or ID)',
    lastName: 'Last name',
    dateOfBirth: 'Date of birth',
    email: 'E-mail for the e-tickets',
    emailInvalid: 'Enter an e-mail address.',
    phone: 'Contact phone number',
    flight: 'Flight',
    fareRules: 'Fare rules',
    pnr: 'Booking reference (PNR)',
    cancel: 'Cancel this booking',
    cancelConfirm: 'The fare’s cancellation fee is kept; the rest comes back to your wallet. Enter your PIN to cancel.',
    cancelled: 'Booking cancelled',
    cancelledBody: '{{refund}} was refunded to your wallet (cancellation fee {{fee}}).',
  },
};

declare module '../../../../app/kinds' {
  interface KindStrings {
    flights: (typeof strings)['flights'];
  }
}
