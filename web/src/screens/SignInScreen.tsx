/** Sign in, or create an account with the same two fields. */
import { Link, useNavigate, useRouter } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { useSignIn } from "../api/session";
import { signInSearch } from "../app/back-to";
import { ErrorText } from "../components/Guard";

export function SignInScreen() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useSignIn();
  const navigate = useNavigate();
  const router = useRouter();

  /**
   * Back to the signed-in screen that sent the visitor here, else to Convert. Read when the
   * sign-in succeeds, not when it was sent: a screen opened meanwhile sends the visitor back here
   * with its own address.
   */
  const onSignedIn = () => {
    const back = signInSearch(router.state.location.search).redirect;
    return back ? router.history.push(back) : void navigate({ to: "/" });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const mode = submitter?.value === "sign-up" ? "sign-up" : "sign-in";
    signIn.mutate({ mode, email, password }, { onSuccess: onSignedIn });
  };

  return (
    <div className="screen narrow">
      <h1>Sign in</h1>
      <p>Converting on this device needs no account. Sign in to run tools on the server, keep files and use API tokens.</p>
      <form className="card" onSubmit={submit} aria-label="Sign in or create an account">
        <div className="field">
          <label htmlFor="email">Email</label>
          <input id="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" type="password" autoComplete="current-password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        <div className="actions">
          <button type="submit" value="sign-in" disabled={signIn.isPending}>
            Sign in
          </button>
          <button type="submit" value="sign-up" className="secondary" disabled={signIn.isPending}>
            Create account
          </button>
        </div>
        <ErrorText error={signIn.error} />
        <p>
          <Link to="/reset-password">Forgot your password?</Link>
        </p>
      </form>
    </div>
  );
}
