import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { DroneProfileForm } from '#app/components/dashboard/admin/drone-profile-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'
import { droneFormFailure, droneOf } from '#app/domain/survey/drone-form.server.ts'
import { DroneProfileSchema } from '#app/domain/survey/drone-profile-schema.ts'
import { updateDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'

const CLOSE = '/admin?tab=settings'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({ drone: droneOf(params.droneId) })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const drone = droneOf(params.droneId)
  const submission = parseWithZod(await readFormBody(request), { schema: DroneProfileSchema })
  if (submission.status !== 'success') return droneFormFailure(submission)
  try {
    const updated = updateDroneProfile(admin.id, drone.id, submission.value)
    return redirectWithToast(CLOSE, {
      title: 'Drone Updated',
      description: `${updated.name} has been saved.`,
    })
  } catch (error) {
    return droneFormFailure(submission, error)
  }
}

export default function EditDroneDialog() {
  const { drone } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  return (
    <AdminDialog title="Edit Drone" description={drone.name} closeTo={CLOSE}>
      <DroneProfileForm
        lastResult={actionData?.result}
        defaults={drone}
        closeTo={CLOSE}
        submitLabel="Save Drone"
      />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
