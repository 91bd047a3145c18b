//! El ejecutor que mide `banco` es exactamente el de las soluciones, y los
//! ejercicios solo cambian sus cuatro archivos: lo que completas es lo que
//! se mide.

use std::path::Path;

const EJERCICIOS: [&str; 4] = ["roba.rs", "siguiente.rs", "equidad.rs", "aparca.rs"];

fn lee(ruta: &Path) -> String {
    std::fs::read_to_string(ruta).unwrap_or_else(|e| panic!("no puedo leer {}: {e}", ruta.display()))
}

#[test]
fn la_leccion_las_soluciones_y_los_ejercicios_comparten_el_ejecutor() {
    let raiz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let leccion = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/planificador");
    let soluciones = raiz.join("solutions/09-tu-planificador/src");
    let ejercicios = raiz.join("exercises/09-tu-planificador/src");
    let mut vistos = 0;
    for entrada in std::fs::read_dir(&leccion).unwrap() {
        let nombre = entrada.unwrap().file_name().into_string().unwrap();
        if nombre == "mod.rs" {
            continue;
        }
        vistos += 1;
        let nuestro = lee(&leccion.join(&nombre));
        assert!(
            nuestro == lee(&soluciones.join(&nombre)),
            "lessons/09-tu-planificador/src/planificador/{nombre} y solutions/09-tu-planificador/src/{nombre} \
             deben ser iguales: copia uno sobre otro"
        );
        if !EJERCICIOS.contains(&nombre.as_str()) {
            assert!(
                nuestro == lee(&ejercicios.join(&nombre)),
                "exercises/09-tu-planificador/src/{nombre} debe ser igual que el de la lección (no es un ejercicio)"
            );
        }
    }
    assert_eq!(vistos, 11, "la lección debe tener los 11 archivos del ejecutor");
}
