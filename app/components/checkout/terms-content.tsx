/** The service terms (ten sections) and the highlighted key points, from one source. */
import {
  TERMS_VERSION,
  termsKeyPoints,
  termsSections,
  type TermsFigures,
} from '#app/domain/payments/terms.ts'

export function TermsKeyPoints({ figures }: { figures: TermsFigures }) {
  return (
    <div
      className="rounded-xl border-2 border-amber-300 bg-amber-50 p-3 text-xs text-ink-900 sm:p-4 sm:text-sm"
      data-testid="terms-key-points"
    >
      <p className="font-semibold">Please note before you pay</p>
      <ul className="mt-1.5 list-disc space-y-0.5 pl-5 sm:mt-2 sm:space-y-1">
        {termsKeyPoints(figures).map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
    </div>
  )
}

export function TermsContent({ figures, headingLevel = 3 }: { figures: TermsFigures; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <div className="space-y-4 text-sm leading-relaxed text-ink-700">
      {termsSections(figures).map((section) => (
        <section key={section.id} id={`terms-${section.id}`} aria-labelledby={`terms-${section.id}-title`}>
          <Heading id={`terms-${section.id}-title`} className="font-semibold text-ink-950">
            {section.title}
          </Heading>
          {section.paragraphs.map((p) => (
            <p key={p} className="mt-1">
              {p}
            </p>
          ))}
        </section>
      ))}
      <p className="text-xs text-ink-500">Terms version {TERMS_VERSION}.</p>
    </div>
  )
}
