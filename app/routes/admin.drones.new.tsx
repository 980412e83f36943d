import { type ActionFunctionArgs } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { DroneProfileForm } from '#app/components/dashboard/admin/drone-profile-form.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { adminDialogLoader } from '#app/domain/admin/dialog-routes.server.ts'
import { DRONE_FORM } from '#app/domain/admin/drone-form.server.ts'
import { submitAdminForm } from '#app/domain/admin/form-responses.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { createDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'

const CLOSE = '/admin?tab=settings'

export const loader = adminDialogLoader

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  return submitAdminForm(await readFormBody(request), {
    ...DRONE_FORM,
    save: (value) => createDroneProfile(admin.id, value),
    done: (drone) => ({
      title: 'Drone Created',
      description: `${drone.name} is ${drone.isActive ? 'active' : 'inactive'}.`,
    }),
  })
}

export default function CreateDroneDialog() {
  const actionData = useActionData<typeof action>()
  return (
    <AdminDialog
      title="Add Drone"
      description="A drone and its mapping camera, as published by the maker."
      closeTo={CLOSE}
    >
      <DroneProfileForm lastResult={actionData?.result} closeTo={CLOSE} submitLabel="Create Drone" />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
