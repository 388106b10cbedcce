import { useErrors } from '../errors';

/** The last error a request answered with: the gateway's message, the parameter it names, its request id. */
export function ErrorBanner() {
  const { error, clear } = useErrors();
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      <div className="error-text">
        <span className="error-message">{error.message}</span>
        {error.param && (
          <span className="error-param">
            {' '}
            (<code>{error.param}</code>)
          </span>
        )}
        {error.requestId && <span className="error-request">Request {error.requestId}</span>}
      </div>
      <button type="button" className="link-button" onClick={clear} aria-label="Dismiss error">
        Dismiss
      </button>
    </div>
  );
}
