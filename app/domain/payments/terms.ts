import { QUOTE_VALIDITY_DAYS } from '#app/domain/flight-plan/flight-plan.ts'
import { formatMetres, formatPercent, formatRand, formatSquareMetres } from '#app/lib/format/numbers.ts'

/**
 * The service terms a client accepts before paying (ten sections
 * "Constants" and "Site and checkout"). One source for the dialog, the
 * invoice view and the record on the project: change the text → bump TERMS_VERSION.
 */

/** Stored on the project and invoice when the terms are accepted. */
export const TERMS_VERSION = '2026-11-v3'

export const CANCELLATION_ADMIN_FEE_PERCENT = 15
export const NO_CANCELLATION_BUSINESS_DAYS = 11
export const COOLING_OFF_DAYS = 7
export const DATA_RETENTION = '1 month'
const MINIMUM_LIABILITY_COVER_CENTS = 50_000_000

/**
 * The figures the terms quote: the settings in force and, where a quote is in
 * view, the quote's own travel fee — the one a late cancellation keeps.
 */
export interface TermsFigures {
  vatRate: number
  /** m² included in the tier minimum price (a pricing setting). */
  areaThreshold: number
  /** The quote's travel fee in cents (excl. VAT); null where the terms are read without a quote. */
  travelFee: number | null
  /** The height above ground the project's survey plan flies (m); null without a plan. */
  flightHeightM: number | null
}

export function termsFigures(
  settings: Pick<TermsFigures, 'vatRate' | 'areaThreshold'>,
  quote: { travelFee: number | null; flightHeightM?: number | null } | null,
): TermsFigures {
  return {
    ...termsSettingsOf(settings),
    travelFee: quote?.travelFee ?? null,
    flightHeightM: quote?.flightHeightM ?? null,
  }
}

/** The settings part of the figures, for a page that adds each quote's travel fee itself. */
export function termsSettingsOf(settings: Pick<TermsFigures, 'vatRate' | 'areaThreshold'>) {
  return { vatRate: settings.vatRate, areaThreshold: settings.areaThreshold }
}

/** 'the R 171,23 travel fee on your quote', or without a quote 'the travel fee on your quote'. */
const travelFee = (f: TermsFigures) =>
  f.travelFee == null
    ? 'the travel fee on your quote'
    : `the ${formatRand(f.travelFee)} travel fee on your quote`

/** '75 m above ground' from the survey plan, or without one 'the height in your flight plan'. */
const flightHeight = (f: TermsFigures) =>
  f.flightHeightM == null ? 'the height in your flight plan' : `${formatMetres(f.flightHeightM)} above ground`

export interface TermsSection {
  id: string
  title: string
  paragraphs: string[]
}

export function termsSections(f: TermsFigures): TermsSection[] {
  return [
    {
      id: 'service',
      title: '1. The service',
      paragraphs: [
        'Kestrel Aerial Survey arranges drone mapping and aerial survey flights over the areas you drew on the map. Flights are flown by our partner operator, which holds a South African Civil Aviation Authority (SACAA) Remote Operator Certificate and flies under Part 101 of the Civil Aviation Regulations.',
        `Your order covers one survey of the areas and total area shown on your quote, flown at ${flightHeight(f)}, and the processed deliverables (orthomosaic map and survey data) for those areas.`,
      ],
    },
    {
      id: 'price',
      title: '2. Price and payment',
      paragraphs: [
        `The price is in South African rand and includes VAT at ${formatPercent(f.vatRate, 2)}. It is made up of the area price (a minimum price per pricing tier; larger areas are priced per square metre above ${formatSquareMetres(f.areaThreshold)}), a travel fee and any aviation fee for controlled airspace. Your quote is valid for ${QUOTE_VALIDITY_DAYS} days.`,
        'You pay in full before the flight through PayFast, a secure hosted payment page: we never see or store your card details. Your project is confirmed only once PayFast tells us the payment succeeded, and a tax invoice is then issued.',
      ],
    },
    {
      id: 'schedule',
      title: '3. Scheduling and delivery',
      paragraphs: [
        'After payment we assign a pilot and schedule the flight, normally within 8 to 12 business days. Deliverables follow 5 to 7 business days after the data is collected. If we cannot deliver within 30 days of your order you may cancel for a full refund.',
      ],
    },
    {
      id: 'weather-airspace',
      title: '4. Weather, airspace and safety',
      paragraphs: [
        'Drones can only fly safely in suitable weather: no rain, good visibility and wind under about 10 m/s. If the weather is unsafe on the day, we move the flight to the next suitable day at no extra cost.',
        'Some sites are in or near controlled or restricted airspace or close to an airfield. Flying there needs approval from SACAA or air traffic control, which can take time or be refused. This may delay the flight or, in rare cases, prevent it; if it prevents it, you get a full refund. The pilot may stop or postpone any flight for safety, and that decision is final.',
      ],
    },
    {
      id: 'client',
      title: '5. Your part',
      paragraphs: [
        'You confirm that the area you drew is correct, that you own the land or have the landowner’s permission for the flight (we ask you to upload a signed land owner agreement), and that the pilot can reach a safe take-off point. Please tell people on site about the flight. Delays caused by missing access or permission may be charged as a rescheduled visit.',
      ],
    },
    {
      id: 'cancellation',
      title: '6. Cancellation and refunds',
      paragraphs: [
        `Cooling-off: you may cancel within ${COOLING_OFF_DAYS} days of booking for a full refund. Because flights are scheduled at least 8 business days after payment, the cooling-off period always ends before your flight.`,
        `After the cooling-off period you may cancel up to ${NO_CANCELLATION_BUSINESS_DAYS} business days before the scheduled flight: we refund the amount paid less a ${CANCELLATION_ADMIN_FEE_PERCENT}% administration fee, and ${travelFee(f)} is not refundable. Within ${NO_CANCELLATION_BUSINESS_DAYS} business days of the flight an order can no longer be cancelled or refunded.`,
        'Cancel from your dashboard (Cancel project) or by e-mail; we confirm the refund and send you a credit note.',
        'No cancellation charge applies if you cannot go ahead because of death or hospitalisation. If we cancel, or cannot fly because approval is refused, you receive a full refund. Refunds are paid within 30 days to the card or account you paid with.',
      ],
    },
    {
      id: 'data',
      title: '7. Deliverables and data retention',
      paragraphs: [
        'Deliverables are made available in your dashboard and can be downloaded for 1 month after delivery. Please download and keep your own copy: after that month we may delete the imagery and processed data. Invoices and tax records are kept for as long as tax law requires.',
      ],
    },
    {
      id: 'liability',
      title: '8. Limits of liability',
      paragraphs: [
        'Our survey products are accurate mapping aids, not a registered land survey or legal boundary determination. Our total liability for a project is limited to the amount you paid for it, and we are not liable for indirect or consequential loss such as lost profit.',
        `Nothing in these terms limits liability that cannot be limited under the Consumer Protection Act, or liability for our gross negligence. Our partner operator carries at least ${formatRand(MINIMUM_LIABILITY_COVER_CENTS)} third-party liability insurance for every flight.`,
      ],
    },
    {
      id: 'privacy',
      title: '9. Privacy and imagery',
      paragraphs: [
        'We process your personal information under the Protection of Personal Information Act (POPIA) only to quote, deliver and invoice your project, and share it only with the operator flying it, PayFast and our e-mail provider. Aerial imagery may show people, homes or vehicles: access to your imagery is limited to you and the people working on your project, and we blur identifiable people on request.',
      ],
    },
    {
      id: 'general',
      title: '10. General',
      paragraphs: [
        'These terms are governed by South African law. Our company details, registration and VAT numbers, address and complaints contact are on our legal information page. We may update these terms for future orders; the version you accept is recorded with your order.',
      ],
    },
  ]
}

/** The highlighted summary shown above the acceptance box (CPA s49: conspicuous). */
export function termsKeyPoints(f: TermsFigures) {
  return [
    cancellationSummary(f),
    'Weather and airspace: unsafe weather moves the flight; airspace approval may delay or, rarely, prevent it (then you are refunded in full).',
    'Liability is limited to the amount paid for the project. Data can be downloaded for 1 month after delivery.',
  ]
}

/** The cancellation rule in one sentence: terms key points, /legal and checkout. */
export function cancellationSummary(f: TermsFigures) {
  return `Cancellation: full refund within ${COOLING_OFF_DAYS} days of booking; after that, up to ${NO_CANCELLATION_BUSINESS_DAYS} business days before the flight, a refund less a ${CANCELLATION_ADMIN_FEE_PERCENT}% administration fee (${travelFee(f)} is not refundable); none within ${NO_CANCELLATION_BUSINESS_DAYS} business days of the flight.`
}

/** The terms as plain text, for the invoice view and the API. */
export function termsAsText(f: TermsFigures) {
  return [
    `Terms and conditions (version ${TERMS_VERSION})`,
    ...termsSections(f).map((s) => [s.title, ...s.paragraphs].join('\n')),
  ].join('\n\n')
}

export const TERMS_REQUIRED_MESSAGE = 'Please accept the terms and conditions to proceed.'
export const PAYMENT_START_ERROR = 'There was an error processing your payment. Please try again.'
export const PAYMENT_START_DEFAULT = 'Failed to initiate payment'
