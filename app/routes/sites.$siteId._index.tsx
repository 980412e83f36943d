/**
 * `/sites/$siteId` — one of the client's sites: its surveys over time, the rename
 * form and the repeat schedule. Both forms work without JavaScript; "Don't repeat" is one
 * button. Stockpile and pit notes on its surveys: their volume over time (a server-drawn chart,
 * its table and CSV). The Map view of the site is its sibling route, `/sites/$siteId/map`.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageCard } from '#app/components/layout/page-card.tsx'
import {
  RepeatBadge,
  siteScheduleLine,
  SiteSurveyList,
  SiteThumbnail,
} from '#app/components/sites/site-card.tsx'
import { StockpileSeries } from '#app/components/sites/stockpile-chart.tsx'
import { DetailRow } from '#app/components/ui/detail-row.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { siteStockpiles } from '#app/domain/annotations/stockpile-series.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { REPEAT_CHOICES, SITE_INTENTS, SiteRenameFormSchema } from '#app/domain/sites/site-schedule.ts'
import { getSiteCard } from '#app/domain/sites/sites.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { plural } from '#app/lib/format/numbers.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { handleSitePageAction } from '#app/routes/_helpers/site-page.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.site.name ?? 'Site'} · Kestrel Aerial Survey` },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, 'client')
  const siteId = pageId(params.siteId)
  const site = await asPage(() => getSiteCard(user, siteId))
  const stockpiles = siteStockpiles(user, siteId)
  return json({ site, stockpiles })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, 'client')
  const siteId = pageId(params.siteId)
  const formData = await readFormBody(request)
  return asPage(() => handleSitePageAction(user, siteId, formData))
}

type ActionData = { intent?: string; result?: SubmissionResult<string[]> }

function RenameForm({ name }: { name: string }) {
  const actionData = useActionData<ActionData>()
  const pending = useIsPending({ intent: SITE_INTENTS.rename })
  const [form, fields] = useForm({
    id: 'rename-site',
    constraint: getZodConstraint(SiteRenameFormSchema),
    lastResult: actionData?.intent === SITE_INTENTS.rename ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SiteRenameFormSchema }),
    // Errors clear while typing, not on blur: a blur that removes the message would move the
    // button away from under the pointer between press and release.
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: { name },
  })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-3">
      <input type="hidden" name="intent" value={SITE_INTENTS.rename} />
      <Field
        labelProps={{ children: 'Site name' }}
        errors={fields.name.errors}
        inputProps={{ ...getInputProps(fields.name, { type: 'text' }), maxLength: 255, autoComplete: 'off' }}
      />
      <StatusButton pending={pending} pendingLabel="Saving…" className="btn-sm">
        Rename site
      </StatusButton>
    </Form>
  )
}

function ScheduleForms({ repeatEvery }: { repeatEvery: (typeof REPEAT_CHOICES)[number]['value'] | null }) {
  const pending = useIsPending({ intent: SITE_INTENTS.schedule })
  return (
    <div className="space-y-3">
      <Form method="post" className="space-y-3" data-testid="schedule-form">
        <input type="hidden" name="intent" value={SITE_INTENTS.schedule} />
        <fieldset>
          <legend className="label">Repeat this survey</legend>
          <div className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6">
            {REPEAT_CHOICES.map((choice) => (
              <label key={choice.value} className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  name="repeatEvery"
                  value={choice.value}
                  defaultChecked={(repeatEvery ?? 'month') === choice.value}
                  className="h-4 w-4 accent-amber-500"
                />
                {choice.label}
              </label>
            ))}
          </div>
          <p className="mt-1 text-xs text-ink-500">
            We make the next survey as a quote and e-mail you a link to pay for it before its date. Nothing is
            charged until you pay.
          </p>
        </fieldset>
        <StatusButton pending={pending} pendingLabel="Saving…" className="btn-sm">
          Save schedule
        </StatusButton>
      </Form>
      {repeatEvery ? (
        <Form method="post">
          <input type="hidden" name="intent" value={SITE_INTENTS.schedule} />
          <button
            type="submit"
            name="repeatEvery"
            value="none"
            className="btn-secondary btn-sm"
            disabled={pending}
          >
            Don’t repeat
          </button>
        </Form>
      ) : null}
    </div>
  )
}

export default function SitePage() {
  const { site, stockpiles } = useLoaderData<typeof loader>()
  return (
    <AppShell>
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:px-6">
        <p>
          <Link to="/dashboard?tab=sites" className="link text-sm">
            ← My Sites
          </Link>
        </p>
        <PageCard
          title={site.name}
          description={siteScheduleLine(site)}
          testProps={{ 'data-testid': 'site-page' }}
        >
          <div className="mt-5 grid gap-5 sm:grid-cols-[12rem_minmax(0,1fr)]">
            <SiteThumbnail thumbnail={site.thumbnail} className="aspect-[4/3] rounded-lg" />
            <dl>
              <DetailRow label="Surveys">{plural(site.surveys.length, 'survey')}</DetailRow>
              <DetailRow label="Repeat">
                <RepeatBadge every={site.repeatEvery} />
              </DetailRow>
              <DetailRow label="Next survey due">
                {site.repeatEvery ? formatDate(site.nextDueOn) : '—'}
              </DetailRow>
            </dl>
          </div>
          <div className="mt-4 flex flex-wrap gap-2">
            <Link to={`/sites/${site.id}/map`} className="btn-secondary btn-sm">
              Map view
            </Link>
          </div>
          <h2 className="mt-6 text-sm font-semibold text-ink-950">Surveys</h2>
          <SiteSurveyList surveys={site.surveys} />
        </PageCard>
        {stockpiles.length ? (
          <section className="card space-y-6 p-6 sm:p-8" aria-labelledby="stockpiles-heading">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="stockpiles-heading" className="text-lg font-semibold text-ink-950">
                Stockpiles over time
              </h2>
              <div className="flex flex-wrap gap-2">
                <a href={`/sites/${site.id}/stockpiles.csv`} className="btn-secondary btn-sm" download>
                  Inventory CSV
                </a>
                <a href={`/sites/${site.id}/stockpiles.pdf`} className="btn-secondary btn-sm" download>
                  Inventory PDF
                </a>
              </div>
            </div>
            {stockpiles.map((stockpile) => (
              <StockpileSeries key={stockpile.id} stockpile={stockpile} />
            ))}
          </section>
        ) : null}
        <section className="card space-y-6 p-6 sm:p-8" aria-label="Site settings">
          <RenameForm name={site.name} />
          <div className="border-t border-ink-100 pt-6">
            <ScheduleForms repeatEvery={site.repeatEvery} />
          </div>
        </section>
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
