import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { CLEAR_ZONES_CONFIRM } from '#app/components/dashboard/admin/airspace-tab.tsx'
import { ConfirmDialog } from '#app/components/ui/confirm-dialog.tsx'
import { clearAllZones } from '#app/domain/admin/airspace-admin.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'

const BACK = '/admin?tab=airspace'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({})
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  await readFormBody(request)
  try {
    const removed = clearAllZones(admin.id)
    return redirectWithToast(BACK, {
      title: 'Airspace Zones Cleared',
      description: `${removed} zone${removed === 1 ? '' : 's'} removed.`,
    })
  } catch (error) {
    console.error('[admin] clearing zones failed', error)
    return redirectWithToast(BACK, {
      type: 'error',
      title: 'Clear Failed',
      description: 'Failed to clear airspace zones',
    })
  }
}

/** The confirmation (ADR 122): the tab's button links here, with and without JavaScript. */
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
