/**
 * The one modal dialog. A dialog is a URL state (`?dialog=…`, `?invoice=…` or a
 * child route): the server renders it when the URL asks for it and closing is a link back,
 * so it works without JavaScript. With JavaScript it takes focus, keeps Tab inside the
 * dialog, closes on Escape or a click on the backdrop, stops the page behind it from
 * scrolling and gives focus back when it closes. Callers that open it from state pass
 * `onClose` to close in place instead of following the link.
 */
import { Link, useNavigate } from '@remix-run/react'
import { useEffect, useId, useRef, type ReactNode } from 'react'

import { cn } from './cn.ts'

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

const SIZES = { sm: 'sm:max-w-md', md: 'sm:max-w-lg', lg: 'sm:max-w-3xl' } as const

export function UrlDialog({
  title,
  description,
  closeTo,
  onClose,
  children,
  footer,
  size = 'md',
  testId,
  replace = true,
  longFooter = false,
}: {
  title: ReactNode
  description?: ReactNode
  /** Where the close link goes (the page without the dialog). */
  closeTo: string
  /** With JavaScript: close in place instead of following the link. */
  onClose?: () => void
  children: ReactNode
  /** The action row under the body (buttons, or a whole `<Form>`). */
  footer?: ReactNode
  size?: keyof typeof SIZES
  testId?: string
  /** Closing replaces the history entry (dialogs opened in place) or pushes one (dialog routes). */
  replace?: boolean
  /** The footer is a long form: on a small screen the whole panel scrolls, so the body keeps room. */
  longFooter?: boolean
}) {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()
  // The latest close handler, so the effect below runs once per opening.
  const close = useRef(() => {})
  close.current = onClose ?? (() => navigate(closeTo, { replace, preventScrollReset: true }))

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    // The dialog itself takes focus (not its first field), so a long dialog opens at the top.
    panel.current?.focus({ preventScroll: true })
    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.preventDefault()
        close.current()
        return
      }
      if (event.key !== 'Tab' || !panel.current) return
      const focusable = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      )
      if (!focusable.length) return event.preventDefault()
      const first = focusable[0]!
      const last = focusable[focusable.length - 1]!
      const inside = panel.current.contains(document.activeElement)
      if (
        event.shiftKey &&
        (!inside || document.activeElement === first || document.activeElement === panel.current)
      ) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
        event.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKey)
      document.body.style.overflow = overflow
      previous?.focus?.({ preventScroll: true })
    }
  }, [])

  const closeInPlace = onClose
    ? (event: React.MouseEvent) => {
        event.preventDefault()
        onClose()
      }
    : undefined

  return (
    // `!m-0`: a parent's `space-y-*` must not push the fixed overlay down from the top.
    <div className="fixed inset-0 z-[1500] !m-0 flex items-end justify-center bg-ink-950/60 p-0 backdrop-blur-sm sm:items-center sm:p-4">
      <Link
        to={closeTo}
        replace={replace}
        preventScrollReset
        onClick={closeInPlace}
        className="absolute inset-0 cursor-default"
        aria-hidden="true"
        tabIndex={-1}
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid={testId}
        className={cn(
          'relative flex max-h-[92vh] w-full flex-col rounded-t-2xl bg-white shadow-2xl focus:outline-none sm:rounded-2xl',
          longFooter ? 'overflow-y-auto sm:overflow-hidden' : 'overflow-hidden',
          SIZES[size],
        )}
      >
        <div className="flex items-start justify-between gap-4 border-b border-ink-100 px-5 py-4 sm:px-6">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-ink-950">
              {title}
            </h2>
            {description ? <div className="mt-0.5 text-sm text-ink-500">{description}</div> : null}
          </div>
          <Link
            to={closeTo}
            preventScrollReset
            replace={replace}
            onClick={closeInPlace}
            className="-mr-2 rounded-lg p-2 text-ink-500 hover:bg-ink-100 hover:text-ink-900"
            aria-label="Close dialog"
          >
            ✕
          </Link>
        </div>
        <div
          className={cn(
            'px-5 py-4 sm:px-6',
            longFooter ? 'flex-none sm:flex-1 sm:overflow-y-auto' : 'flex-1 overflow-y-auto',
          )}
        >
          {children}
        </div>
        {footer ? (
          <div className="flex flex-wrap justify-end gap-2 border-t border-ink-100 bg-ink-50 px-5 py-3 sm:px-6">
            {footer}
          </div>
        ) : null}
      </div>
    </div>
  )
}

/** A "Cancel" link that closes the dialog it sits in (in place when `onClose` is given). */
export function DialogCloseLink({
  closeTo,
  onClose,
  children = 'Cancel',
  className = 'btn-secondary',
  replace = true,
}: {
  closeTo: string
  onClose?: () => void
  children?: ReactNode
  className?: string
  replace?: boolean
}) {
  return (
    <Link
      to={closeTo}
      preventScrollReset
      replace={replace}
      className={className}
      onClick={(event) => {
        if (!onClose) return
        event.preventDefault()
        onClose()
      }}
    >
      {children}
    </Link>
  )
}
