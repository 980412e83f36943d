import { parseWithZod } from '@conform-to/zod'
import {
  json,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AdminDashboard } from '#app/components/dashboard/admin-dashboard.tsx'
import { ClientDashboard } from '#app/components/dashboard/client-dashboard.tsx'
import { PilotDashboard } from '#app/components/dashboard/pilot-dashboard.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { ErrorScreen, GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { ProfileSchema } from '#app/domain/auth/schemas.ts'
import { isMultipart } from '#app/domain/files/multipart.server.ts'
import { OWNER_HEADER } from '#app/domain/offline/cache-rules.ts'
import { ClientProfileSchema } from '#app/domain/payments/billing.ts'
import { saveProfile } from '#app/domain/users/users.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { createToastHeaders } from '#app/lib/http/toast.server.ts'
import { takeWelcome } from '#app/lib/http/welcome.server.ts'
import { AdminIntents, handleAdminIntent } from '#app/routes/_helpers/admin-intents.server.ts'
import { clientProjectIntents } from '#app/routes/_helpers/client-dashboard.server.ts'
import { loadRoleDashboard } from '#app/routes/_helpers/dashboard.server.ts'
import {
  FileIntents,
  handleFileIntent,
  handleUploadForm,
} from '#app/routes/_helpers/file-page-actions.server.ts'
import { pilotIntents } from '#app/routes/_helpers/pilot-dashboard.server.ts'
import leafletCss from 'leaflet/dist/leaflet.css'

/** The pilot's job dialog shows the survey areas on a Leaflet map. */
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: leafletCss }]

export const meta: MetaFunction = () => [{ title: 'Dashboard · Kestrel Aerial Survey' }]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const welcome = await takeWelcome(request)
  const headers = new Headers()
  if (welcome.clear) headers.set('Set-Cookie', welcome.clear)
  // Whose page this is: the pilot's offline pack keeps only its owner's pages.
  if (user.role === 'pilot') headers.set(OWNER_HEADER, String(user.id))
  return json(
    { ...(await loadRoleDashboard(user, new URL(request.url))), welcome: welcome.message },
    { headers },
  )
}

/** The document carries the loader's headers (the welcome cookie, the offline owner). */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

const ProfileIntent = intentSchema('update-profile')

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request)
  // File uploads stream to disk (busboy): they must not go through the form-body reader.
  if (isMultipart(request)) return handleUploadForm(request, user)
  const formData = await readFormBody(request)
  if (readIntent(formData, FileIntents)) return handleFileIntent(request, user, formData)
  if (user.role === 'admin' && readIntent(formData, AdminIntents)) {
    return handleAdminIntent(user, formData)
  }
  const roleAnswer = clientProjectIntents.answer(user, formData) ?? pilotIntents.answer(user, formData)
  if (roleAnswer) return roleAnswer
  const intent = readIntent(formData, ProfileIntent)
  if (intent === 'update-profile') {
    const schema = user.role === 'client' ? ClientProfileSchema : ProfileSchema
    const submission = parseWithZod(formData, { schema })
    if (submission.status !== 'success') {
      return json({ intent, result: submission.reply() }, { status: 400 })
    }
    saveProfile(user, submission.value)
    return json(
      { intent, result: submission.reply() },
      {
        headers: await createToastHeaders({
          title: 'Profile Updated',
          description: 'Your details have been saved.',
        }),
      },
    )
  }
  return json({ intent, error: 'Unknown action' }, { status: 400 })
}

export default function DashboardPage() {
  // loadRoleDashboard gives each role exactly its dashboard's props.
  const data = useLoaderData<typeof loader>()
  return (
    <AppShell>
      {data.role === 'client' ? (
        <ClientDashboard {...data} />
      ) : data.role === 'pilot' ? (
        <PilotDashboard {...data} />
      ) : data.role === 'admin' ? (
        <AdminDashboard {...data} />
      ) : (
        <ErrorScreen title="Invalid Role" message="Invalid Role - Your account role is not recognized." />
      )}
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
