import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { deleteDroneProfile } from '#app/domain/survey/drone-profiles.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { confirmedAdminAction } from '#app/routes/_helpers/admin-dialogs.server.ts'
import { droneOf } from '#app/routes/_helpers/drone-form.server.ts'

const CLOSE = '/admin?tab=settings'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const drone = droneOf(pageId(params.droneId))
  return json({ drone: { id: drone.id, name: drone.name } })
}

export async function action({ request, params }: ActionFunctionArgs) {
  return confirmedAdminAction(request, {
    back: CLOSE,
    run: (admin) => {
      const drone = droneOf(pageId(params.droneId))
      deleteDroneProfile(admin.id, drone.id)
      return drone
    },
    done: (drone) => ({
      title: 'Drone Deleted',
      description: `${drone.name} was removed. Stored survey plans keep their figures.`,
    }),
  })
}

export default function DeleteDroneDialog() {
  const { drone } = useLoaderData<typeof loader>()
  return (
    <ConfirmDialog
      title="Delete drone profile?"
      closeTo={CLOSE}
      confirmLabel="Delete Drone"
      pendingLabel="Deleting…"
    >
      <p>
        Delete <strong>{drone.name}</strong>? New survey plans can no longer use it; plans already stored keep
        their figures. To keep it but hide it from planners, deactivate it instead.
      </p>
    </ConfirmDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
