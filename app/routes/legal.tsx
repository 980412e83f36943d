import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { getOptionalUser } from '#app/domain/auth/guards.server.ts'
import { getSiteCompany } from '#app/domain/operator/operator-documents.server.ts'
import {
  CANCELLATION_ADMIN_FEE_PERCENT,
  COOLING_OFF_DAYS,
  NO_CANCELLATION_BUSINESS_DAYS,
} from '#app/domain/payments/terms.ts'
import { randToCents } from '#app/domain/pricing/quote.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { vatLabel } from '#app/domain/pricing/vat.ts'
import { appUrl } from '#app/lib/config/env.server.ts'
import { formatKm, formatRand } from '#app/lib/format/numbers.ts'
import type { ReactNode } from 'react'

export const meta: MetaFunction = () => [
  { title: 'Company information, terms & privacy · Kestrel Aerial Survey' },
  {
    name: 'description',
    content:
      'Legal information, terms of service, privacy notice (POPIA) and cancellation policy of Kestrel Aerial Survey.',
  },
]

/** Everything ECTA s43(1) asks a South African online supplier to publish, from configuration. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  const { vatRate, localTravelFee, localTravelThreshold } = getPricingSettings()
  return json({
    company: getSiteCompany(),
    website: appUrl(),
    signedIn: Boolean(user),
    vatRate,
    localTravelFee,
    localTravelThreshold,
  })
}

const CONTENTS = [
  { id: 'company', label: 'Company information' },
  { id: 'terms', label: 'Terms of service' },
  { id: 'privacy', label: 'Privacy notice (POPIA)' },
  { id: 'cancellation', label: 'Cancellation & refunds' },
]

export default function LegalPage() {
  const { company, website, signedIn, vatRate, localTravelFee, localTravelThreshold } =
    useLoaderData<typeof loader>()
  return (
    <div className="bg-white">
      <SiteHeader signedIn={signedIn} />
      <main className="pt-16">
        <div className="bg-ink-950 py-14 text-white">
          <div className="mx-auto max-w-5xl px-4 sm:px-6">
            <p className="text-xs font-bold uppercase tracking-[0.25em] text-amber-400">Legal</p>
            <h1 className="mt-3 text-3xl font-black tracking-tight sm:text-4xl">
              Company information, terms &amp; privacy
            </h1>
            <p className="mt-3 max-w-2xl text-ink-300">
              The information the Electronic Communications and Transactions Act (s43) requires us to publish,
              how we handle your personal information under POPIA, and what happens if you cancel a booking.
            </p>
          </div>
        </div>
        <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[220px_1fr]">
          <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
            <p className="text-xs font-semibold uppercase tracking-wider text-ink-500">On this page</p>
            <ul className="mt-3 flex flex-wrap gap-2 text-sm lg:flex-col lg:gap-1">
              {CONTENTS.map((c) => (
                <li key={c.id}>
                  <a
                    href={`#${c.id}`}
                    className="block rounded-md px-2 py-1 text-ink-700 hover:bg-ink-50 hover:text-ink-950"
                  >
                    {c.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="space-y-14 text-[15px] leading-relaxed text-ink-700">
            <LegalSection id="company" title="Company information">
              <dl className="divide-y divide-ink-100 overflow-hidden rounded-xl border border-ink-100">
                {(
                  [
                    ['Full name and legal form', company.legalName + ' (private company)'],
                    ['Registration number', company.registrationNumber],
                    ['Directors', company.directors],
                    ['Physical address', company.address],
                    ['Address for service of legal documents', company.address],
                    ['Telephone', company.phone],
                    ['E-mail', company.email],
                    ['Website', website],
                    ['VAT registration number', company.vatNumber],
                    [
                      'Codes of conduct and regulation',
                      `Flights are conducted by ${company.operatorName}, holder of SACAA RPAS Operator Certificate ${company.operatorRocNumber}, under Part 101 of the South African Civil Aviation Regulations.`,
                    ],
                    [
                      'Payment',
                      'Card and instant EFT through PayFast’s secure hosted payment page; we never see or store card details.',
                    ],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="grid gap-1 px-4 py-3 sm:grid-cols-[220px_1fr] sm:gap-4">
                    <dt className="text-sm font-semibold text-ink-900">{label}</dt>
                    <dd className="text-sm">{value}</dd>
                  </div>
                ))}
              </dl>
            </LegalSection>

            <LegalSection id="terms" title="Terms of service">
              <ol className="list-decimal space-y-3 pl-5">
                <li>
                  <strong>The service.</strong> We plan and process drone surveys of the areas you draw in the
                  flight planner. Flights are flown by our partner operator named above. Deliverables (maps,
                  models and reports) are made available in your dashboard.
                </li>
                <li>
                  <strong>Quotes and prices.</strong> Quotes are calculated from the surveyed area, the
                  distance from our nearest hub and any airspace fees, and are shown in rand excluding VAT,
                  the {vatLabel(vatRate)} and the total including VAT. A quote is valid for 30 days. The price
                  you accept is the price you pay.
                </li>
                <li>
                  <strong>Scheduling and delivery.</strong> Flights are scheduled within 8 to 12 business days
                  of payment, weather and airspace permitting. Processed data is delivered 5 to 7 business
                  days after it is collected and stays downloadable for 1 month. If we cannot deliver within
                  the agreed time, or within 30 days where no time was agreed, you may cancel for a full
                  refund.
                </li>
                <li>
                  <strong>Weather and airspace.</strong> Flights need wind under 10 m/s and may need SACAA or
                  air traffic control approval, which can delay or prevent a flight. If a flight cannot take
                  place for these reasons we reschedule it at no cost, or refund you in full if no suitable
                  date can be found.
                </li>
                <li>
                  <strong>Your responsibilities.</strong> You confirm you have the landowner’s permission to
                  survey the area and give safe access where needed. Survey imagery may show people and homes;
                  we treat it as personal information (see below).
                </li>
                <li>
                  <strong>Liability.</strong> Our liability for any claim is limited to the amount you paid
                  for the survey concerned, except where the law does not allow such a limit (including for
                  gross negligence).
                </li>
              </ol>
            </LegalSection>

            <LegalSection id="privacy" title="Privacy notice (POPIA)">
              <p>
                {company.legalName} is the responsible party for the personal information you give us. Our
                full privacy notice — what we collect and why, who receives it and where, how long we keep it,
                your rights and our Information Officer — is on the{' '}
                <Link to="/privacy" className="link">
                  privacy notice page
                </Link>
                .
              </p>
            </LegalSection>

            <LegalSection id="cancellation" title="Cancellation & refund policy">
              <ul className="space-y-3">
                <Item title="Cooling-off period">
                  You may cancel within {COOLING_OFF_DAYS} days of booking for a full refund. If you ask us to
                  fly within those 7 days, you agree the service may start early and the flight, once flown,
                  cannot be cancelled.
                </Item>
                <Item title={`More than ${NO_CANCELLATION_BUSINESS_DAYS} business days before the flight`}>
                  We refund the amount paid less a {CANCELLATION_ADMIN_FEE_PERCENT}% administration fee. The
                  travel fee on your quote is non-refundable: {formatRand(randToCents(localTravelFee))} within{' '}
                  {formatKm(localTravelThreshold)} of our nearest hub, by the kilometre beyond that.
                </Item>
                <Item title={`Within ${NO_CANCELLATION_BUSINESS_DAYS} business days of the flight`}>
                  No refund is available, because the pilot and equipment are committed.
                </Item>
                <Item title="Death or hospitalisation">
                  No cancellation charge applies if you cannot go ahead because of death or hospitalisation.
                </Item>
                <Item title="Weather, airspace or our cancellation">
                  If we cancel, or cannot fly because of weather or airspace restrictions and no new date
                  suits you, you receive a full refund.
                </Item>
                <Item title="How refunds are paid">
                  To the original payment method within 30 days, with a credit note for your records. To
                  cancel, use Cancel project on your dashboard or e-mail{' '}
                  <a className="link" href={`mailto:${company.email}`}>
                    {company.email}
                  </a>{' '}
                  with your project name.
                </Item>
              </ul>
            </LegalSection>
          </div>
        </div>
      </main>
      <SiteFooter company={company} />
    </div>
  )
}

function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2 id={`${id}-heading`} className="mb-5 text-2xl font-bold tracking-tight text-ink-950">
        {title}
      </h2>
      {children}
    </section>
  )
}

function Item({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="rounded-xl border border-ink-100 bg-ink-50/60 px-4 py-3">
      <p className="font-semibold text-ink-900">{title}</p>
      <p className="mt-1 text-sm">{children}</p>
    </li>
  )
}
