import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { DroneProfileForm } from '#app/components/dashboard/admin/drone-profile-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { DRONE_FORM, droneOf } from '#app/domain/admin/drone-form.server.ts'
import { submitAdminForm } from '#app/domain/admin/form-responses.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { updateDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'

const CLOSE = '/admin?tab=settings'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({ drone: droneOf(params.droneId) })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const drone = droneOf(params.droneId)
  return submitAdminForm(await readFormBody(request), {
    ...DRONE_FORM,
    save: (value) => updateDroneProfile(admin.id, drone.id, value),
    done: (updated) => ({ title: 'Drone Updated', description: `${updated.name} has been saved.` }),
  })
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
