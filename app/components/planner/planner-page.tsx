/**
 * The flight planner of one project: header with the two tabs, the map workspace (with
 * JavaScript) or the coordinates form and its explanation (without), the privacy note and
 * the 'Project Quote' dialog once the plan is saved.
 */
import type { SerializeFrom } from '@remix-run/node'
import { Link, useSearchParams } from '@remix-run/react'
import { AirspaceLegend } from '#app/components/airspace/airspace-legend.tsx'
import {
  PAYMENT_PROJECT_KEY,
  PLANNER_PROJECT_KEY,
  rememberProject,
} from '#app/components/dashboard/client/projects-tab.tsx'
import { PrivacyNote } from '#app/components/legal/privacy-note.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { NO_HUBS_MESSAGE } from '#app/domain/pricing/quote.ts'
import type { PlannerProjectData } from '#app/routes/_helpers/planner-page.server.ts'
import type { PlannerActionAnswer } from '#app/routes/_helpers/planner-quote.server.ts'
import { useEffect } from 'react'

import { CoordinatesForm } from './coordinates-form.tsx'
import { PlannerWorkspace } from './planner-workspace.tsx'
import { QuoteDialog } from './quote-dialog.tsx'

const PLANNER_TABS = [
  { id: 'plan', label: 'Flight Planning & Quoting' },
  { id: 'airspace', label: 'Airspace Zones' },
] as const

/** Without JavaScript: why there is no map, next to the coordinates form. */
function NoMapExplanation() {
  return (
    <section className="card flex flex-col justify-center gap-3 p-6 text-sm text-ink-600">
      <h2 className="text-base font-semibold text-ink-900">Drawing on the satellite map needs JavaScript</h2>
      <p>
        Enter the corners of each survey area in the form instead — from Google Maps or Google Earth
        (right-click a point to copy its ‘latitude, longitude’), or upload the KML file Google Earth exports
        for a drawn polygon.
      </p>
      <p>
        The quote is the same as on the map: area, nearest hub, airspace fees and VAT, computed on our server.
      </p>
    </section>
  )
}

export function PlannerPage({
  data,
  actionData,
}: {
  data: SerializeFrom<PlannerProjectData>
  actionData: PlannerActionAnswer | undefined
}) {
  const hydrated = useHydrated()
  const [params] = useSearchParams()
  const { project } = data
  const base = `/flight-planner?projectId=${project.id}`
  const closeTo = data.tab === 'airspace' ? `${base}&tab=airspace` : base

  // Keep the sessionStorage hand-off entry current, so a later visit without the id finds it.
  useEffect(() => {
    rememberProject(params.get('payment') === 'true' ? PAYMENT_PROJECT_KEY : PLANNER_PROJECT_KEY, project)
  }, [project, params])

  const noJsForm = project.canPlan ? (
    <CoordinatesForm
      projectId={project.id}
      defaultText={actionData?.coordinates ?? data.coordinatesText}
      error={actionData?.error ?? null}
      errorField={actionData?.field ?? null}
      failure={actionData?.toast ?? null}
    />
  ) : null

  return (
    <main className="mx-auto max-w-[1600px] px-4 py-5 sm:px-6">
      <header className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <Link
            to="/dashboard?tab=projects"
            className="btn-secondary btn-sm mt-1 shrink-0"
            aria-label="Back to dashboard"
          >
            ← Dashboard
          </Link>
          <div className="min-w-0">
            <h1 className="break-words text-xl font-bold text-ink-950 sm:text-2xl">{project.name}</h1>
            <p className="break-words text-sm text-ink-500">{project.location ?? 'No address'}</p>
          </div>
        </div>
        <TabLinks
          tabs={PLANNER_TABS}
          active={data.tab}
          label="Planner sections"
          hrefFor={(id) => (id === 'plan' ? base : `${base}&tab=${id}`)}
          replace
        />
      </header>

      {data.hubsError && project.canPlan ? (
        <Alert title={data.hubsError} className="mb-4" id="planner-hubs-error">
          Quotes say ‘{NO_HUBS_MESSAGE}’ and cannot be saved until an administrator adds an active flight hub.
          Please try again later or contact us.
        </Alert>
      ) : null}
      {data.tab === 'airspace' ? <AirspaceLegend /> : null}
      {!project.canPlan ? null : hydrated ? (
        // Kept mounted (hidden) on the Airspace Zones tab, so the drawing survives a tab switch.
        <div hidden={data.tab === 'airspace'}>
          <PlannerWorkspace
            project={project}
            hubs={data.hubs}
            settings={data.settings}
            initialAreas={data.areas}
            tileUrl={data.tileUrl}
            streetTileUrl={data.streetTileUrl}
            serverError={actionData?.error ?? null}
            noJsForm={noJsForm}
            surveySettings={data.surveySettings}
            visible={data.tab !== 'airspace'}
          />
        </div>
      ) : data.tab === 'airspace' ? null : (
        <div className="grid gap-4 lg:grid-cols-[420px_minmax(0,1fr)]">
          <section className="card p-5">{noJsForm}</section>
          <NoMapExplanation />
        </div>
      )}

      <PrivacyNote className="mt-4" />

      {data.quote ? (
        <QuoteDialog quote={data.quote} closeTo={closeTo} hasScreenshot={data.hasScreenshot} />
      ) : null}
    </main>
  )
}
