/**
 * A modal dialog that is a URL state (architecture.md "Dialogs work without JavaScript"):
 * the server renders it when the query asks for it, closing is a link back. With
 * JavaScript the caller may open it from state and pass `onClose` to close in place;
 * Escape closes and focus moves into the dialog.
 */
import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'
import { cn } from './cn.ts'

export function UrlDialog({
  title,
  description,
  closeTo,
  onClose,
  children,
  footer,
  size = 'md',
  testId,
}: {
  title: ReactNode
  description?: ReactNode
  /** Where the close link goes (the page without the dialog's query). */
  closeTo: string
  /** With JavaScript: close in place instead of following the link. */
  onClose?: () => void
  children: ReactNode
  footer?: ReactNode
  size?: 'sm' | 'md' | 'lg'
  testId?: string
}) {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    panel.current?.focus()
    function onKey(event: KeyboardEvent) {
      if (event.key !== 'Escape') return
      if (onClose) onClose()
      else navigate(closeTo, { replace: true, preventScrollReset: true })
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      previous?.focus?.()
    }
  }, [onClose, closeTo, navigate])

  return (
    <div className="fixed inset-0 z-[1500] flex items-end justify-center bg-ink-950/60 p-0 backdrop-blur-sm sm:items-center sm:p-4">
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        className={cn(
          'flex max-h-[92vh] w-full flex-col overflow-hidden rounded-t-2xl bg-white shadow-2xl focus:outline-none sm:rounded-2xl',
          size === 'sm' ? 'sm:max-w-md' : size === 'lg' ? 'sm:max-w-3xl' : 'sm:max-w-xl',
        )}
      >
        <div className="flex items-start justify-between gap-4 border-b border-ink-100 px-5 py-4">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-ink-950">
              {title}
            </h2>
            {description ? <p className="mt-0.5 text-sm text-ink-500">{description}</p> : null}
          </div>
          <Link
            to={closeTo}
            preventScrollReset
            replace
            onClick={(event) => {
              if (!onClose) return
              event.preventDefault()
              onClose()
            }}
            className="-mr-2 rounded-lg p-2 text-ink-500 hover:bg-ink-100 hover:text-ink-900"
            aria-label="Close dialog"
          >
            ✕
          </Link>
        </div>
        <div className="flex-1 overflow-y-auto px-5 py-4">{children}</div>
        {footer ? <div className="flex flex-wrap justify-end gap-2 border-t border-ink-100 bg-ink-50 px-5 py-3">{footer}</div> : null}
      </div>
    </div>
  )
}
