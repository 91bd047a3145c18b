//! Cada ejercicio se prueba a sí mismo (ver `curso::verificacion`): su código
//! inicial falla sus propias pruebas, la solución las pasa todas y cada
//! respuesta incorrecta conocida falla.

use std::path::PathBuf;

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

#[test]
fn la_lista_de_ejercicios_es_valida() {
    let lista = curso::ejercicios::cargar(&raiz()).expect("exercises/ejercicios.toml debe leerse");
    let mut problemas = curso::ejercicios::validar(&raiz(), &lista);
    problemas.extend(curso::ejercicios::carpetas_sin_ejercicios(&raiz(), &lista));
    // Cada ejercicio tiene fijado su código inicial; en la integración
    // continua (clon limpio), los archivos deben ser exactamente esos.
    let hashes = curso::iniciales::cargar(&raiz()).expect("exercises/iniciales.toml");
    for e in &lista {
        if !hashes.contains_key(&e.nombre) {
            problemas.push(format!(
                "«{}» no está en exercises/iniciales.toml: cargo curso mantenimiento fija-iniciales",
                e.nombre
            ));
        } else if std::env::var_os("CI").is_some() && !curso::iniciales::sin_tocar(&raiz(), e, &hashes) {
            problemas.push(format!(
                "el código inicial de «{}» cambió y exercises/iniciales.toml no: cargo curso mantenimiento fija-iniciales",
                e.nombre
            ));
        }
    }
    assert!(problemas.is_empty(), "problemas en la lista:\n- {}", problemas.join("\n- "));
}

#[test]
fn cada_ejercicio_falla_en_su_inicio_y_pasa_en_su_solucion() {
    let lista = curso::ejercicios::cargar(&raiz()).unwrap();
    let informe = curso::verificacion::verificar(&raiz(), &lista, curso::verificacion::Alcance::Esencial);
    for linea in informe.resumen.iter().chain(&informe.tiempos) {
        eprintln!("{linea}");
    }
    assert!(informe.problemas.is_empty(), "problemas:\n- {}", informe.problemas.join("\n- "));
    assert_eq!(informe.resumen.len(), lista.len());
}
