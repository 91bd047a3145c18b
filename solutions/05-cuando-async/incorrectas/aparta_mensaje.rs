//! Respuesta incorrecta plausible: saca el mensaje del pánico y entra en
//! pánico otra vez con ese texto. Con `panic!("texto")` parece que
//! funciona, pero la carga ya no es la original: un `&str` se vuelve
//! `String`, y una carga que no es texto (`panic_any(Codigo(7))`) se pierde.

pub async fn aparta<T, F>(trabajo: F) -> T
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    match tokio::task::spawn_blocking(trabajo).await {
        Ok(valor) => valor,
        Err(error) => {
            let carga = error.into_panic();
            let mensaje = carga
                .downcast_ref::<&str>()
                .map(|texto| texto.to_string())
                .or_else(|| carga.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "el trabajo entró en pánico".to_string());
            panic!("{mensaje}")
        }
    }
}
