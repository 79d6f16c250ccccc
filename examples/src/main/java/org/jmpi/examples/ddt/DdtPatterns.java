package org.jmpi.examples.ddt;

import java.util.List;

/** The 16 DDTBench patterns by name. */
public final class DdtPatterns
{
    /** DDTBench's pattern names, in the order of issue 3. */
    public static final List<String> NAMES = List.of("WRF_x_vec", "WRF_y_vec", "WRF_x_sa", "WRF_y_sa", "MILC_su3_zd",
        "NAS_MG_x", "NAS_MG_y", "NAS_MG_z", "NAS_LU_x", "NAS_LU_y", "FFT", "SPECFEM3D_mt", "LAMMPS_full",
        "LAMMPS_atomic", "SPECFEM3D_oc", "SPECFEM3D_cm");

    private DdtPatterns()
    {
    }

    /**
     * Builds a pattern: its buffer (zeroed), committed types and manual loops.
     *
     * @throws IllegalArgumentException for a name not in {@link #NAMES}
     */
    public static DdtPattern create(final String name, final DdtSize size)
    {
        if (name.startsWith("WRF_") && NAMES.contains(name))
        {
            return Wrf.create(name, size);
        }
        return switch (name)
        {
            case "MILC_su3_zd" -> Milc.create(size);
            case "NAS_MG_x", "NAS_MG_y", "NAS_MG_z" -> NasMg.create(name, size);
            case "NAS_LU_x", "NAS_LU_y" -> NasLu.create(name, size);
            case "FFT" -> Fft.create(size);
            case "SPECFEM3D_mt", "SPECFEM3D_oc", "SPECFEM3D_cm" -> Specfem3d.create(name, size);
            case "LAMMPS_full", "LAMMPS_atomic" -> Lammps.create(name, size);
            default -> throw new IllegalArgumentException("unknown DDTBench pattern: " + name + "; known: " + NAMES);
        };
    }
}
