/**
 * /flight-planner (spec "Flight planner"): signed-in clients draw the survey areas of
 * one of their projects and get the quote. The project comes by `?projectId=` (so a
 * reload or a no-JS visit works) and, with JavaScript, from the spec's sessionStorage
 * hand-off (ADR 020). Generate Quote posts here: with JavaScript the map's areas, without
 * it pasted coordinates or a KML/GeoJSON file (ADR 021); the server prices and stores
 * the plan, then shows the 'Project Quote' dialog (`&view=quote`).
 */
import {
  json,
  MaxPartSizeExceededError,
  redirect,
  unstable_createMemoryUploadHandler,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  type UploadHandler,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData, useNavigate, useSearchParams } from '@remix-run/react'
import { AirspaceLegend } from '#app/components/airspace/airspace-legend.tsx'
import {
  PAYMENT_PROJECT_KEY,
  PLANNER_PROJECT_KEY,
  rememberProject,
} from '#app/components/dashboard/client/projects-tab.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PrivacyNote } from '#app/components/legal/privacy-note.tsx'
import { CoordinatesForm } from '#app/components/planner/coordinates-form.tsx'
import { PlannerWorkspace } from '#app/components/planner/planner-workspace.tsx'
import { QuoteDialog } from '#app/components/planner/quote-dialog.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { getEnv } from '#app/domain/config/env.server.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'
import { listActiveHubs } from '#app/domain/hubs/active-hubs.server.ts'
import { NO_FLIGHT_HUBS_MESSAGE, NO_HUBS_MESSAGE } from '#app/domain/pricing/quote.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { isValidScreenshot, readStoredFlightPlan, summariseQuote } from '#app/domain/projects/flight-plan.ts'
import {
  areasFromPlannerForm,
  PLANNER_FORM_MAX_BYTES,
  plannerFieldOf,
  plannerPartLimit,
  type PlannerField,
} from '#app/domain/projects/planner-input.server.ts'
import {
  completeFlightPlan,
  createProjectFailed,
  getClientProject,
  PAID_PROJECT_LOCKED,
  PROJECT_CREATED,
  PROJECT_NOT_PLANNABLE,
} from '#app/domain/projects/projects.server.ts'
import { canPlan } from '#app/domain/projects/status.ts'
import { plannerSurveySettings } from '#app/domain/survey/project-plan.server.ts'
import { readSurveyPlan } from '#app/domain/survey/project-plan.ts'
import leafletDrawCss from 'leaflet-draw/dist/leaflet.draw.css'
import leafletCss from 'leaflet/dist/leaflet.css'
import { useEffect } from 'react'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: leafletCss },
  { rel: 'stylesheet', href: leafletDrawCss },
]

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title:
      data && 'project' in data && data.project
        ? `${data.project.name} · Flight planner · Kestrel`
        : 'Flight planner · Kestrel',
  },
]

const PLANNER_TABS = [
  { id: 'plan', label: 'Flight Planning & Quoting' },
  { id: 'airspace', label: 'Airspace Zones' },
] as const

async function requireClient(request: Request) {
  const user = await requireUser(request)
  if (user.role !== 'client') throw redirect('/dashboard')
  return user
}

function areasAsText(areas: Array<{ coordinates: Array<{ latitude: number; longitude: number }> }>) {
  return areas.map((a) => a.coordinates.map((p) => `${p.latitude}, ${p.longitude}`).join('\n')).join('\n\n')
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireClient(request)
  const url = new URL(request.url)
  const rawId = url.searchParams.get('projectId')
  const payment = url.searchParams.get('payment') === 'true'
  // No id: with JavaScript the page reads the sessionStorage hand-off; without, it goes back.
  if (!rawId) return json({ handOff: true as const, payment })

  const id = Number(rawId)
  if (!Number.isInteger(id) || id <= 0) throw redirect('/dashboard')
  let project
  try {
    project = getClientProject(user.id, id)
  } catch (error) {
    if (isDomainError(error)) throw redirect('/dashboard')
    throw error
  }
  const plan = readStoredFlightPlan(project.polygonGeoJson)
  // Stored data that cannot be read sends the client back (spec section 8).
  if (project.polygonGeoJson && !plan) throw redirect('/dashboard')

  const wantsQuote = url.searchParams.get('view') === 'quote' || payment
  const quote =
    wantsQuote && plan && project.status === 'pending'
      ? summariseQuote(project, plan, readSurveyPlan(project.surveyPlan)?.summary ?? null)
      : null
  if (!canPlan(project) && !quote) {
    throw await redirectWithToast('/dashboard?tab=projects', {
      title: project.isPaid ? PAID_PROJECT_LOCKED : PROJECT_NOT_PLANNABLE,
      type: 'info',
    })
  }
  const activeHubs = listActiveHubs()
  const areas = plan
    ? plan.areas.map((a) => a.coordinates.map((p) => ({ latitude: p.latitude, longitude: p.longitude })))
    : []
  return json({
    handOff: false as const,
    project: {
      id: project.id,
      name: project.name,
      location: project.location,
      latitude: project.latitude,
      longitude: project.longitude,
      status: project.status,
      isPaid: project.isPaid,
      canPlan: canPlan(project),
    },
    areas,
    coordinatesText: areasAsText(areas.map((coordinates) => ({ coordinates }))),
    hubs: activeHubs.map((h) => ({
      id: h.id,
      name: h.name,
      latitude: h.latitude,
      longitude: h.longitude,
      address: h.address,
    })),
    hubsError: activeHubs.length ? null : NO_FLIGHT_HUBS_MESSAGE,
    settings: getPricingSettings(),
    surveySettings: plannerSurveySettings(project.projectType),
    tileUrl: getEnv().TILE_URL,
    streetTileUrl: getEnv().STREET_TILE_URL,
    quote,
    hasScreenshot: Boolean(plan && isValidScreenshot(plan.screenshot)),
    tab: url.searchParams.get('tab') === 'airspace' ? ('airspace' as const) : ('plan' as const),
  })
}

type FailureToast = { title: string; description: string }
type ActionAnswer = {
  error: string
  field: PlannerField | null
  fieldErrors?: Record<string, string[]>
  toast?: FailureToast
  /** The coordinates as typed, sent back so an error never throws them away (no-JS form). */
  coordinates?: string
}

function failure(
  status: number,
  error: string,
  field: ActionAnswer['field'],
  fieldErrors?: Record<string, string[]>,
  toast?: FailureToast,
  coordinates?: string,
) {
  return json<ActionAnswer>({ error, field, fieldErrors, toast, coordinates }, { status })
}

/** Each part is read with its own field's ceiling (plannerPartLimit). */
const plannerUploadHandler: UploadHandler = (part) =>
  unstable_createMemoryUploadHandler({ maxPartSize: plannerPartLimit(part.name).maxBytes })(part)

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireClient(request)
  const id = Number(new URL(request.url).searchParams.get('projectId'))
  if (!Number.isInteger(id) || id <= 0) return failure(400, 'No project selected', null)
  // Ownership first: nothing of a stranger's body is read or parsed.
  let wasDraft: boolean
  try {
    wasDraft = getClientProject(user.id, id).status === 'draft'
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw redirect('/dashboard')
    throw error
  }

  let formData: FormData
  try {
    // With JavaScript the map posts its areas and screenshot urlencoded (percent-encoded base64 grows).
    formData = await readFormBody(request, {
      uploadHandler: plannerUploadHandler,
      maxBytes: PLANNER_FORM_MAX_BYTES,
    })
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) {
      const limit = plannerPartLimit(error.field)
      return failure(413, limit.message, limit.field)
    }
    // Not a form, or unreadable: the planner shows the reason in place (403 stays an error page).
    if (error instanceof Response && error.status !== 403) {
      const { error: message } = (await error.json()) as { error: string }
      return failure(error.status, message, null)
    }
    throw error
  }
  if (formData.get('intent') !== 'generate-quote') return failure(400, 'Unknown action', null)
  const typed = formData.get('coordinates')
  const coordinates = typeof typed === 'string' && typed.trim() ? typed : undefined

  let input: Awaited<ReturnType<typeof areasFromPlannerForm>>
  try {
    input = await areasFromPlannerForm(formData)
  } catch (error) {
    if (isDomainError(error))
      return failure(error.status, error.message, plannerFieldOf(error), undefined, undefined, coordinates)
    throw error
  }

  const { areas, field } = input
  const screenshot = formData.get('screenshot')
  try {
    completeFlightPlan(user.id, id, {
      areas,
      screenshot: typeof screenshot === 'string' && screenshot ? screenshot : undefined,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    if (error.status === 404) throw redirect('/dashboard')
    // Pricing or saving the project failed: the spec's 'Error' toast besides the inline alert. It
    // travels in the answer (a flash cookie would only show on the next page).
    return failure(
      error.status,
      error.message,
      field,
      error.fieldErrors,
      { title: 'Error', description: createProjectFailed(error.message) },
      coordinates,
    )
  }
  const quoteUrl = `/flight-planner?projectId=${id}&view=quote`
  // A draft just became a pending project: the spec's success toast (not on a re-quote).
  return wasDraft
    ? redirectWithToast(quoteUrl, { title: PROJECT_CREATED, type: 'success' })
    : redirect(quoteUrl)
}

export default function FlightPlannerPage() {
  const data = useLoaderData<typeof loader>()
  return <AppShell>{data.handOff ? <HandOff payment={data.payment} /> : <Planner data={data} />}</AppShell>
}

/** No id in the URL: read the spec's sessionStorage entry, or go back to the dashboard. */
function HandOff({ payment }: { payment: boolean }) {
  const navigate = useNavigate()
  useEffect(() => {
    let id: number | null = null
    try {
      const stored = JSON.parse(
        sessionStorage.getItem(payment ? PAYMENT_PROJECT_KEY : PLANNER_PROJECT_KEY) ?? 'null',
      ) as { id?: unknown } | null
      if (stored && Number.isInteger(stored.id)) id = stored.id as number
    } catch {
      id = null
    }
    navigate(id ? `/flight-planner?projectId=${id}${payment ? '&view=quote' : ''}` : '/dashboard', {
      replace: true,
    })
  }, [navigate, payment])
  return (
    <main className="mx-auto max-w-xl px-4 py-16 text-center">
      <noscript>
        <meta httpEquiv="refresh" content="0; url=/dashboard" />
      </noscript>
      <p className="text-ink-600">Opening your project…</p>
      <Link to="/dashboard" className="link mt-4 inline-block">
        Back to the dashboard
      </Link>
    </main>
  )
}

type PlannerData = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { handOff: false }>

function Planner({ data }: { data: PlannerData }) {
  const hydrated = useHydrated()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  const { project } = data
  const base = `/flight-planner?projectId=${project.id}`
  const closeTo = data.tab === 'airspace' ? `${base}&tab=airspace` : base

  // Keep the spec's hand-off entry current, so a later visit without the id finds it.
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
          <section className="card flex flex-col justify-center gap-3 p-6 text-sm text-ink-600">
            <h2 className="text-base font-semibold text-ink-900">
              Drawing on the satellite map needs JavaScript
            </h2>
            <p>
              Enter the corners of each survey area in the form instead — from Google Maps or Google Earth
              (right-click a point to copy its ‘latitude, longitude’), or upload the KML file Google Earth
              exports for a drawn polygon.
            </p>
            <p>
              The quote is the same as on the map: area, nearest hub, airspace fees and VAT, computed on our
              server.
            </p>
          </section>
        </div>
      )}

      <PrivacyNote className="mt-4" />

      {data.quote ? (
        <QuoteDialog quote={data.quote} closeTo={closeTo} hasScreenshot={data.hasScreenshot} />
      ) : null}
    </main>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
