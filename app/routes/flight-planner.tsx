/**
 * /flight-planner: signed-in clients draw the survey areas of one of their projects and
 * get the quote. The project comes by `?projectId=` (so a reload or a no-JS visit works)
 * and, with JavaScript, from the sessionStorage hand-off. Generate Quote posts
 * here: with JavaScript the map's areas, without it pasted coordinates or a KML/GeoJSON
 * file; the server prices and stores the plan, then shows the 'Project Quote'
 * dialog (`&view=quote`).
 */
import {
  json,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PlannerHandOff } from '#app/components/planner/planner-hand-off.tsx'
import { PlannerPage } from '#app/components/planner/planner-page.tsx'
import { plannerPageData, requirePlannerClient } from '#app/routes/_helpers/planner-page.server.ts'
import { generateQuote } from '#app/routes/_helpers/planner-quote.server.ts'
import leafletDrawCss from 'leaflet-draw/dist/leaflet.draw.css'
import leafletCss from 'leaflet/dist/leaflet.css'

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

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requirePlannerClient(request)
  return json(await plannerPageData(user, new URL(request.url)))
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requirePlannerClient(request)
  return generateQuote(request, user)
}

export default function FlightPlannerPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <AppShell>
      {data.handOff ? (
        <PlannerHandOff payment={data.payment} />
      ) : (
        <PlannerPage data={data} actionData={actionData} />
      )}
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
