/**
 * /sites/$siteId/map — what changed on a site, for its client and admins (anyone
 * else: 404). Two surveys chosen with a GET form (`?before=&after=`); with JavaScript a map
 * that swipes between their orthomosaics, the elevation change layer and the change in a
 * drawn area; always the surveys' dates, previews (no-JS) and metadata, the change over the
 * survey areas (a POST form) and the site report link.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { LazySiteChangeMap } from '#app/components/mapview/lazy-site-change-map.tsx'
import {
  AreaChangeForm,
  siteReportUrl,
  SurveyColumns,
  SurveyPairForm,
} from '#app/components/mapview/site-map-sections.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { getSiteForUser } from '#app/domain/sites/site-access.server.ts'
import { changeOverAreas, loadSiteMap } from '#app/domain/sites/site-map.server.ts'
import { getEnv } from '#app/lib/config/env.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'

export { deliverablesMapLinks as links } from '#app/components/mapview/lazy-deliverables-map.tsx'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.site.name} · What changed · Kestrel` : 'What changed · Kestrel' },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const siteId = pageId(params.siteId)
  const view = await asPage(() => loadSiteMap(user, siteId, new URL(request.url).searchParams))
  return json({ ...view, tileUrl: getEnv().TILE_URL })
}

/** The no-JS change figures: the pair's change over each survey area (the change call's service). */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const siteId = pageId(params.siteId)
  // Someone else's site is the 404 page before the form is read (its figures' refusals are the form's).
  await asPage(() => getSiteForUser(user, siteId))
  const form = await readFormBody(request)
  const pair = new URLSearchParams({
    before: String(form.get('before') ?? '').slice(0, 12),
    after: String(form.get('after') ?? '').slice(0, 12),
  })
  try {
    return json({ areaChanges: await changeOverAreas(user, siteId, pair, request.signal), error: null })
  } catch (error) {
    if (!isDomainError(error) || error.status >= 500) throw error
    return json({ areaChanges: null, error: error.message }, { status: error.status === 429 ? 429 : 400 })
  }
}

export default function SiteMapPage() {
  const { site, surveys, before, after, problem, change, tileUrl } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const pair = before && after && before.projectId !== after.projectId ? { before, after } : null
  return (
    <AppShell>
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
        <div>
          <Link to={`/sites/${site.id}`} className="text-sm text-ink-600 hover:underline">
            ← {site.name}
          </Link>
          <h1 className="mt-2 text-2xl font-bold text-ink-950">What changed</h1>
          <p className="text-ink-600">{site.name}</p>
        </div>
        {surveys.length >= 2 ? (
          <SurveyPairForm
            surveys={surveys}
            beforeId={before?.projectId ?? null}
            afterId={after?.projectId ?? null}
          />
        ) : null}
        {problem ? (
          <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900" role="status">
            {problem}
          </p>
        ) : null}
        {pair ? (
          <>
            <LazySiteChangeMap
              tileUrl={tileUrl}
              siteId={site.id}
              areas={pair.after.areas}
              before={pair.before}
              after={pair.after}
              change={change}
            />
            <p>
              <a
                href={siteReportUrl(site.id, pair.before.projectId, pair.after.projectId)}
                className="btn-secondary"
                download
              >
                Download site report (PDF)
              </a>
            </p>
            <SurveyColumns before={pair.before} after={pair.after} />
            {change ? (
              <AreaChangeForm
                beforeId={pair.before.projectId}
                afterId={pair.after.projectId}
                results={actionData?.areaChanges ?? null}
                error={actionData?.error ?? null}
              />
            ) : null}
          </>
        ) : null}
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
