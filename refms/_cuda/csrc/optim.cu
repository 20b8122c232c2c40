// optim.cu -- parameter updates of the optimizers, in place, one thread per element
// (grid-stride).  ApplyMomentum reads its learning rate and momentum from device memory;
// the other updates take their scalars as host doubles.
#include "common.cuh"

namespace refms {

// ApplyMomentum, the learning rate and momentum read from device memory (one element
// each: nn.Momentum keeps them as Parameters, so reading them on the host would wait for
// the GPU).  The arithmetic is the CPU kernel's, in T, operation for operation:
//     accum = accum * momentum + grad
//     var = var - accum * lr                                (plain)
//     var = var - (grad * lr + accum * momentum * lr)       (Nesterov)
template <class T>
__global__ void apply_momentum_kernel(int64_t n, T* var, T* accum, const T* grad, const T* lr_ptr,
                                      const T* momentum_ptr, int use_nesterov) {
    const T lr = *lr_ptr, momentum = *momentum_ptr;
    REFMS_GRID_LOOP(i, n) {
        T a = accum[i] * momentum + grad[i];
        accum[i] = a;
        var[i] = use_nesterov ? var[i] - (grad[i] * lr + a * momentum * lr) : var[i] - a * lr;
    }
}

// SGD (PyTorch's rule, as MindSpore's SGD):  g = grad + weight_decay * param
//     accum = g on the first step, else momentum * accum + (1 - dampening) * g
//     g = g + momentum * accum (Nesterov) or accum          (when momentum != 0)
//     param -= lr * g
template <class T>
__global__ void sgd_kernel(int64_t n, T* param, T* accum, const T* grad, double lr, double momentum,
                           double dampening, double weight_decay, int nesterov, int first_step) {
    REFMS_GRID_LOOP(i, n) {
        double g = (double)grad[i] + weight_decay * (double)param[i];
        if (momentum != 0.0) {
            double a = first_step ? g : momentum * (double)accum[i] + (1.0 - dampening) * g;
            accum[i] = (T)a;
            g = nesterov ? g + momentum * a : a;
        }
        param[i] = (T)((double)param[i] - lr * g);
    }
}

// Adam (beta1_power = beta1^t, beta2_power = beta2^t passed by the caller):
//     m = beta1 m + (1 - beta1) g,   v = beta2 v + (1 - beta2) g^2
//     lr_t = lr sqrt(1 - beta2^t) / (1 - beta1^t)
//     var -= lr_t m / (sqrt(v) + eps)                       (plain)
//     var -= lr_t (beta1 m + (1 - beta1) g) / (sqrt(v) + eps)   (Nesterov)
template <class T>
__global__ void adam_kernel(int64_t n, T* var, T* m, T* v, const T* grad, double lr, double beta1,
                            double beta2, double epsilon, double beta1_power, double beta2_power,
                            int use_nesterov) {
    const double lr_t = lr * sqrt(1.0 - beta2_power) / (1.0 - beta1_power);
    REFMS_GRID_LOOP(i, n) {
        double g = (double)grad[i];
        double mi = beta1 * (double)m[i] + (1.0 - beta1) * g;
        double vi = beta2 * (double)v[i] + (1.0 - beta2) * g * g;
        m[i] = (T)mi;
        v[i] = (T)vi;
        double direction = use_nesterov ? beta1 * mi + (1.0 - beta1) * g : mi;
        var[i] = (T)((double)var[i] - lr_t * direction / (sqrt(vi) + epsilon));
    }
}

}  // namespace refms

using namespace refms;

extern "C" {

int refms_apply_momentum(int dtype, int64_t n, void* var, void* accum, const void* grad,
                         const void* lr, const void* momentum, int use_nesterov) {
    if (n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, apply_momentum_kernel<T>)(
            n, (T*)var, (T*)accum, (const T*)grad, (const T*)lr, (const T*)momentum, use_nesterov));
    return launched();
}

int refms_sgd(int dtype, int64_t n, void* param, void* accum, const void* grad, double lr,
              double momentum, double dampening, double weight_decay, int nesterov, int first_step) {
    if (n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, sgd_kernel<T>)(
            n, (T*)param, (T*)accum, (const T*)grad, lr, momentum, dampening, weight_decay,
            nesterov, first_step));
    return launched();
}

int refms_adam(int dtype, int64_t n, void* var, void* m, void* v, const void* grad, double lr,
               double beta1, double beta2, double epsilon, double beta1_power, double beta2_power,
               int use_nesterov) {
    if (n == 0) return 0;
    REFMS_DISPATCH_FLOAT(dtype,
        REFMS_LAUNCH(blocks_for(n), kThreads, adam_kernel<T>)(
            n, (T*)var, (T*)m, (T*)v, (const T*)grad, lr, beta1, beta2, epsilon, beta1_power,
            beta2_power, use_nesterov));
    return launched();
}

}  // extern "C"
