import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { json } from '@remix-run/node'
import { Form, useLoaderData, useNavigation } from '@remix-run/react'
import { AdminDialog, DialogActions } from '#app/components/dashboard/admin/ui.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'
import { deleteDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'
import { droneOf } from '#app/domain/survey/drone-form.server.ts'

const CLOSE = '/admin?tab=settings'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const drone = droneOf(params.droneId)
  return json({ drone: { id: drone.id, name: drone.name } })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const drone = droneOf(params.droneId)
  deleteDroneProfile(admin.id, drone.id)
  return redirectWithToast(CLOSE, { title: 'Drone Deleted', description: `${drone.name} was removed. Stored survey plans keep their figures.` })
}

export default function DeleteDroneDialog() {
  const { drone } = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  return (
    <AdminDialog title="Delete drone profile?" closeTo={CLOSE}>
      <p className="text-sm text-ink-700">
        Delete <strong>{drone.name}</strong>? New survey plans can no longer use it; plans already stored keep their figures. To keep it but hide it from planners, deactivate it instead.
      </p>
      <Form method="post">
        <DialogActions closeTo={CLOSE}>
          <StatusButton pending={navigation.state === 'submitting'} pendingLabel="Deleting…" className="btn-danger">
            Delete Drone
          </StatusButton>
        </DialogActions>
      </Form>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
