import { type ActionFunctionArgs } from '@remix-run/node'
import { CLEAR_ZONES_CONFIRM } from '#app/components/dashboard/admin/airspace-tab.tsx'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { clearAllZones } from '#app/domain/admin/airspace-admin.server.ts'
import { adminDialogLoader, confirmedAdminAction } from '#app/routes/_helpers/admin-dialogs.server.ts'

const BACK = '/admin?tab=airspace'

export const loader = adminDialogLoader

export async function action({ request }: ActionFunctionArgs) {
  return confirmedAdminAction(request, {
    back: BACK,
    run: (admin) => clearAllZones(admin.id),
    done: (removed) => ({
      title: 'Airspace Zones Cleared',
      description: `${removed} zone${removed === 1 ? '' : 's'} removed.`,
    }),
    failed: {
      log: 'clearing zones failed',
      toast: { title: 'Clear Failed', description: 'Failed to clear airspace zones' },
    },
  })
}

/** The confirmation: the tab's button links here, with and without JavaScript. */
export default function ClearZonesDialog() {
  return (
    <ConfirmDialog
      title="Clear all zones"
      closeTo={BACK}
      confirmLabel="Clear all zones"
      pendingLabel="Clearing…"
    >
      <p>{CLEAR_ZONES_CONFIRM}</p>
    </ConfirmDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
