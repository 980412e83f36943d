/**
 * "Repeat on a schedule" on a project's details (ADR 283): a plain form posting to
 * `/projects/ID/schedule` with one button per interval. A project not yet on a site gets one
 * named after it; a project on a site links there instead, where the schedule is changed or
 * cancelled. Works without JavaScript.
 */
import { Form, Link } from '@remix-run/react'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { REPEAT_CHOICES } from '#app/domain/sites/site-schedule.ts'

export function RepeatScheduleForm({ projectId, siteId }: { projectId: number; siteId: number | null }) {
  const action = `/projects/${projectId}/schedule`
  const pending = useIsPending({ formAction: action })
  return (
    <section aria-labelledby="repeat-schedule-heading" className="mt-6">
      <h3 id="repeat-schedule-heading" className="text-sm font-semibold uppercase tracking-wide text-ink-500">
        Repeat on a schedule
      </h3>
      {siteId !== null ? (
        <p className="mt-2 text-sm text-ink-600">
          This survey belongs to a site.{' '}
          <Link to={`/sites/${siteId}`} className="link" data-testid="project-site-link">
            Set or change its schedule on the site page
          </Link>
          .
        </p>
      ) : (
        <Form method="post" action={action} data-testid="repeat-schedule-form">
          <p className="mt-2 text-sm text-ink-600">
            We quote the next survey of these areas before its date and e-mail you a link to pay. Nothing is
            charged until you pay.
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            {REPEAT_CHOICES.map((choice) => (
              <button
                key={choice.value}
                type="submit"
                name="repeatEvery"
                value={choice.value}
                disabled={pending}
                aria-busy={pending || undefined}
                className="btn-secondary btn-sm"
              >
                Repeat {choice.label.toLowerCase()}
              </button>
            ))}
          </div>
        </Form>
      )}
    </section>
  )
}
