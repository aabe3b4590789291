/* VanDerPol: the smallest useful FMI 2.0 Co-Simulation FMU, for measuring what an importer costs
 * per communication step. States x1, x2 with x1' = x2, x2' = mu (1 - x1^2) x2 - x1, advanced by one
 * classical Runge-Kutta step per fmi2DoStep. Value references: 0 x1, 1 x2 (outputs), 2 mu
 * (parameter). No FMU state, no directional derivatives: a plain third-party-style FMU. */

#include "fmi2_minimal.h"

typedef struct {
    fmi2CallbackFunctions cb;
    double x[3]; /* x1, x2, mu: indexed by value reference */
} Instance;

FMI2_INSTANTIATE(Instance, i->x[0] = 2.0; i->x[1] = 0.0; i->x[2] = 1.0;)

FMI2_COMMON(Instance)
FMI2_IGNORE_EXPERIMENT

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, fmi2Real* v) {
    Instance* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] > 2) return fmi2Error;
        v[k] = i->x[vr[k]];
    }
    return fmi2OK;
}
fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference* vr, size_t n, const fmi2Real* v) {
    Instance* i = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] != 2) return fmi2Error;
        i->x[2] = v[k];
    }
    return fmi2OK;
}
FMI2_ONLY_REALS

static void rhs(double mu, const double* x, double* dx) {
    dx[0] = x[1];
    dx[1] = mu * (1.0 - x[0] * x[0]) * x[1] - x[0];
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean noSetPrior) {
    Instance* i = c;
    double k1[2], k2[2], k3[2], k4[2], y[2];
    (void)t; (void)noSetPrior;
    rhs(i->x[2], i->x, k1);
    for (int j = 0; j < 2; j++) y[j] = i->x[j] + 0.5 * h * k1[j];
    rhs(i->x[2], y, k2);
    for (int j = 0; j < 2; j++) y[j] = i->x[j] + 0.5 * h * k2[j];
    rhs(i->x[2], y, k3);
    for (int j = 0; j < 2; j++) y[j] = i->x[j] + h * k3[j];
    rhs(i->x[2], y, k4);
    for (int j = 0; j < 2; j++) i->x[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    return fmi2OK;
}
fmi2Status fmi2CancelStep(fmi2Component c) { (void)c; return fmi2Error; }
fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference* vr, size_t n,
                                       const fmi2Integer* order, const fmi2Real* v) {
    (void)c; (void)vr; (void)order; (void)v; return n == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference* vr, size_t n,
                                        const fmi2Integer* order, fmi2Real* v) {
    (void)c; (void)vr; (void)order; (void)v; return n == 0 ? fmi2OK : fmi2Error;
}
fmi2Status fmi2GetStatus(fmi2Component c, int s, fmi2Status* v) { (void)c; (void)s; (void)v; return fmi2Discard; }
fmi2Status fmi2GetRealStatus(fmi2Component c, int s, fmi2Real* v) { (void)c; (void)s; (void)v; return fmi2Discard; }
fmi2Status fmi2GetIntegerStatus(fmi2Component c, int s, fmi2Integer* v) { (void)c; (void)s; (void)v; return fmi2Discard; }
fmi2Status fmi2GetBooleanStatus(fmi2Component c, int s, fmi2Boolean* v) { (void)c; (void)s; (void)v; return fmi2Discard; }
fmi2Status fmi2GetStringStatus(fmi2Component c, int s, fmi2String* v) { (void)c; (void)s; (void)v; return fmi2Discard; }
