/** Sign in, or create an account with the same two fields. */
import { useNavigate, useRouter, useSearch } from "@tanstack/react-router";
import { useState, type FormEvent } from "react";
import { useSignIn } from "../api/session";
import { ErrorText } from "../components/Guard";

export function SignInScreen() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useSignIn();
  const navigate = useNavigate();
  const router = useRouter();
  // Set when a signed-in screen sent the visitor here: back there once signed in, else Convert.
  const { redirect } = useSearch({ from: "/sign-in" });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const mode = submitter?.value === "sign-up" ? "sign-up" : "sign-in";
    signIn.mutate({ mode, email, password }, { onSuccess: () => (redirect ? router.history.push(redirect) : void navigate({ to: "/" })) });
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
      </form>
    </div>
  );
}
