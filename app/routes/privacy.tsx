/**
 * `/privacy` — the privacy notice of POPIA section 18 (ADR 110): what we collect and why,
 * who is responsible and its Information Officer, voluntary or not, the laws behind it,
 * processors and cross-border transfers, retention, the data subject's rights and how to
 * use them, and the Information Regulator's contact. Details come from configuration.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { SiteFooter } from '#app/components/layout/site-footer.tsx'
import { SiteHeader } from '#app/components/layout/site-header.tsx'
import { getOptionalUser } from '#app/domain/auth/guards.server.ts'
import { getSiteCompany } from '#app/domain/operator/operator-documents.server.ts'
import {
  DATA_RETENTION,
  INFORMATION_REGULATOR,
  SITE_WAIT_LIMIT_MONTHS,
  TAX_RECORD_RETENTION_YEARS,
} from '#app/domain/privacy/retention.ts'
import { appUrl, getPrivacyContacts } from '#app/lib/config/env.server.ts'
import type { ReactNode } from 'react'

export const meta: MetaFunction = () => [
  { title: 'Privacy notice · Kestrel Aerial Survey' },
  {
    name: 'description',
    content:
      'How Kestrel Aerial Survey collects, uses, shares and keeps your personal information under POPIA, and how to use your rights.',
  },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  return json({
    company: getSiteCompany(),
    contacts: getPrivacyContacts(),
    website: appUrl(),
    signedIn: Boolean(user),
  })
}

export default function PrivacyPage() {
  const { company, contacts, website, signedIn } = useLoaderData<typeof loader>()
  const officer = contacts.informationOfficer
  return (
    <div className="bg-white">
      <SiteHeader signedIn={signedIn} />
      <main className="pt-16">
        <div className="bg-ink-950 py-14 text-white">
          <div className="mx-auto max-w-4xl px-4 sm:px-6">
            <p className="text-xs font-bold uppercase tracking-[0.25em] text-amber-400">POPIA</p>
            <h1 className="mt-3 text-3xl font-black tracking-tight sm:text-4xl">Privacy notice</h1>
            <p className="mt-3 max-w-2xl text-ink-300">
              What personal information we collect, why, who we share it with, how long we keep it and how you
              can see, correct, download or delete it — as section 18 of the Protection of Personal
              Information Act (POPIA) requires.
            </p>
          </div>
        </div>
        <div className="mx-auto max-w-4xl space-y-10 px-4 py-12 text-[15px] leading-relaxed text-ink-700 sm:px-6">
          <Section id="responsible-party" title="Who is responsible">
            <p>
              The responsible party is <strong>{company.legalName}</strong> (registration{' '}
              {company.registrationNumber}), {company.address}. Telephone {company.phone}, e-mail{' '}
              <Mail to={company.email} />, website {website}.
            </p>
            <p className="mt-3" data-testid="information-officer">
              Our registered Information Officer is <strong>{officer.name}</strong>: e-mail{' '}
              <Mail to={officer.email} />, telephone {officer.phone}. Write to the Information Officer for any
              question or request about your personal information; our PAIA manual is available from the same
              address.
            </p>
          </Section>

          <Section id="what" title="What we collect and why">
            <Table
              head={['Information', 'Why we need it', 'Source']}
              rows={[
                [
                  'Name, e-mail address, phone number, company, industry and country',
                  'To create your account, contact you about your survey and send you service e-mail',
                  'You, when you register',
                ],
                [
                  'Billing address and VAT number (if you give them)',
                  'To issue a valid South African tax invoice',
                  'You, in your profile or at checkout',
                ],
                [
                  'Survey areas, project details, preferred dates and uploaded documents (e.g. land owner agreements)',
                  'To quote, plan and fly the survey and get airspace approvals',
                  'You',
                ],
                [
                  'Aerial imagery and processed deliverables',
                  'To deliver the survey. Imagery may show people, homes or vehicles: we treat it as personal information',
                  'Our partner operator’s flights',
                ],
                [
                  'Payment references, amounts and dates (never card details)',
                  'To take payment, refund and keep tax records',
                  'PayFast',
                ],
                [
                  'Terms acceptance (version, time, IP address), sign-in records, IP address',
                  'To prove what you agreed to, keep your account secure and prevent abuse',
                  'Your browser',
                ],
                [
                  'Marketing preference and the time you gave it',
                  'To send news and offers only if you asked for them',
                  'You',
                ],
                [
                  'For pilots: licence (RPL) number and expiry, medical expiry, and copies of the licence and medical certificate',
                  'To fly legally under Part 101 of the Civil Aviation Regulations',
                  'The pilot or the operator',
                ],
              ]}
            />
            <p className="mt-3">
              Giving us this information is voluntary, but without the account, project and billing details we
              cannot quote, fly or invoice your survey. Marketing consent is entirely optional and separate.
            </p>
            <p className="mt-3">
              Laws that require or allow some of it: the Value-Added Tax Act and the Tax Administration Act
              (tax invoices and their retention), the Electronic Communications and Transactions Act (terms
              acceptance and records of transactions) and the Civil Aviation Regulations, Part 101 (pilot and
              flight records).
            </p>
          </Section>

          <Section id="processors" title="Who receives it, and where it is kept">
            <Table
              head={['Recipient', 'What for', 'Where']}
              rows={[
                [
                  `${company.operatorName} and its pilots`,
                  'Flying your survey (assigned projects only)',
                  'South Africa',
                ],
                [
                  'PayFast (a Network International company)',
                  'Processing your payment on its secure hosted page',
                  'South Africa',
                ],
                ['E-mail delivery', `Sending service e-mail: ${contacts.mail}`, 'See the provider named'],
                [
                  'Hosting',
                  `Running the app and storing its database and files: ${contacts.hosting}`,
                  'See the provider named',
                ],
              ]}
            />
            <p className="mt-3">
              Where a processor is outside South Africa, we rely on section 72 of POPIA: the provider is bound
              by law or by a written agreement to protect the information to a standard at least equal to
              POPIA. We never sell your personal information.
            </p>
          </Section>

          <Section id="retention" title="How long we keep it">
            <ul className="list-disc space-y-1.5 pl-5">
              <li>
                Tax invoices and credit notes, with the name and address they carry:{' '}
                {TAX_RECORD_RETENTION_YEARS} years, as tax law requires — also after you delete your account.
              </li>
              <li>
                Survey imagery and deliverables: {DATA_RETENTION} after delivery, unless we agree to keep them
                longer; then they are deleted. When you put a survey on a site to compare it with the next
                one, its processed deliverables (not the flight photos and videos) are kept while the site
                waits for that survey, at most {SITE_WAIT_LIMIT_MONTHS} months, and {DATA_RETENTION} after it
                is delivered.
              </li>
              <li>
                Your account and projects: while your account is open. When you delete your account we
                anonymise it and delete your uploaded documents.
              </li>
              <li>Sign-in sessions: until they expire or you sign out.</li>
            </ul>
          </Section>

          <Section id="rights" title="Your rights and how to use them">
            <ul className="list-disc space-y-1.5 pl-5">
              <li>
                <strong>See and download</strong> what we hold about you: <em>Download my data</em> in the
                Profile tab of your{' '}
                <Link to="/dashboard?tab=profile" className="link">
                  dashboard
                </Link>{' '}
                gives you a ZIP file with your profile, projects, flight plans, invoices and documents.
              </li>
              <li>
                <strong>Correct</strong> your details in the Profile tab, or ask the Information Officer.
              </li>
              <li>
                <strong>Delete</strong> your account: <em>Delete my account</em> in the Profile tab (you
                confirm with your password). Tax records stay for {TAX_RECORD_RETENTION_YEARS} years.
              </li>
              <li>
                <strong>Object</strong> to processing, or withdraw marketing consent at any time: use the
                unsubscribe link in any marketing e-mail, the marketing setting in your profile, or write to
                the Information Officer.
              </li>
              <li>
                <strong>Blur</strong> people or homes in imagery on request.
              </li>
              <li>
                <strong>Complain</strong> to the Information Regulator (below) if you believe we mishandled
                your information.
              </li>
            </ul>
            <p className="mt-3">
              If a security breach affects your information we will tell the Information Regulator and you as
              soon as reasonably possible.
            </p>
          </Section>

          <Section id="regulator" title="The Information Regulator">
            <address className="not-italic" data-testid="regulator-contact">
              {INFORMATION_REGULATOR.name}
              <br />
              {INFORMATION_REGULATOR.address}
              <br />
              Complaints: <Mail to={INFORMATION_REGULATOR.complaintsEmail} /> · Enquiries:{' '}
              <Mail to={INFORMATION_REGULATOR.enquiriesEmail} />
              <br />
              Telephone {INFORMATION_REGULATOR.phone} ·{' '}
              <a className="link" href={INFORMATION_REGULATOR.website} rel="noreferrer">
                {INFORMATION_REGULATOR.website.replace('https://', '')}
              </a>
            </address>
          </Section>
        </div>
      </main>
      <SiteFooter company={company} />
    </div>
  )
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2 id={`${id}-heading`} className="mb-4 text-2xl font-bold tracking-tight text-ink-950">
        {title}
      </h2>
      {children}
    </section>
  )
}

function Mail({ to }: { to: string }) {
  return (
    <a className="link" href={`mailto:${to}`}>
      {to}
    </a>
  )
}

function Table({ head, rows }: { head: string[]; rows: string[][] }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-ink-100">
      <table className="w-full text-left text-sm">
        <thead className="bg-ink-50 text-ink-900">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-4 py-2 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-100">
          {rows.map((row) => (
            <tr key={row[0]}>
              {row.map((cell, i) => (
                <td key={i} className="px-4 py-2 align-top">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
