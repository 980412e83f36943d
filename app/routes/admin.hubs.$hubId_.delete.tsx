import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { deleteHub, findHub } from '#app/domain/hubs/hubs.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { confirmedAdminAction, foundOr404 } from '#app/routes/_helpers/admin-dialogs.server.ts'

const CLOSE = '/admin?tab=settings'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  const hub = foundOr404(findHub(pageId(params.hubId)), 'Hub not found')
  return json({ hub: { id: hub.id, name: hub.name } })
}

export async function action({ request, params }: ActionFunctionArgs) {
  return confirmedAdminAction(request, {
    back: CLOSE,
    run: (admin) => {
      const hub = foundOr404(findHub(pageId(params.hubId)), 'Hub not found')
      deleteHub(admin.id, hub.id)
      return hub
    },
    done: (hub) => ({
      title: 'Hub Deleted',
      description: `${hub.name} was removed. Stored quotes keep their figures.`,
    }),
  })
}

export default function DeleteHubDialog() {
  const { hub } = useLoaderData<typeof loader>()
  return (
    <ConfirmDialog title="Delete hub?" closeTo={CLOSE} confirmLabel="Delete Hub" pendingLabel="Deleting…">
      <p>
        Delete <strong>{hub.name}</strong>? New quotes will use the nearest remaining active hub. Quotes
        already stored keep their price and hub name.
      </p>
    </ConfirmDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
