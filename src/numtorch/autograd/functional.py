"""torch.autograd.functional: vjp, jvp, jacobian, hessian, hvp, vhp (to be completed)."""
